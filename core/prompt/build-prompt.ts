/**
 * Builds the exact prompt a role's CLI receives (seed 000 Task 2's build_full_prompt): pack the
 * file context within token_budget − TEMPLATE_OVERHEAD, render the role's template with strict
 * data, and report sizes. Roles without a template get seed 002's legacy prompt instead
 * (system prompt + task + files + extra context, from the packer's packContext).
 */
import type { PackedContext, PackOptions } from '../context/types.ts';
import { estimateTokens, loadTokenizer, type TokenizerName } from '../context/tokens.ts';
import { resolveOutputSchema, type OutputSchema } from '../output/schemas.ts';
import type { Registry } from '../registry.ts';
import type { Role } from '../roles/role.ts';
import { chooseTemplate } from './choose-template.ts';
import { instructionPaths, readInstructions, type InstructionText } from './instructions.ts';
import { createRenderer } from './render.ts';
import { templateData } from './template-data.ts';
import { getTemplate, loadTemplateSet } from './templates.ts';

export interface BuildPromptOptions {
  role: Role;
  task: string;
  /** Repository-relative target paths. */
  targets: string[];
  /** Extra sections (--context key=value), e.g. { test_output: "..." }. */
  extraContext: Record<string, string>;
  /** Absolute repository root: packing reads from it, .supervisor/prompts/ overrides come from it. */
  repoRoot: string;
  registry: Registry;
  /** The adapter takes instruction files as arguments (`instructions: 'argument'`). */
  instructionsAsArguments: boolean;
  tokenizer?: TokenizerName;
  notice?: (m: string) => void;
}

export interface PromptStats {
  /** Estimated tokens of the whole prompt. */
  promptTokens: number;
  /** The packed parts, then (template flow) system_prompt, task, instructions and template text. */
  parts: PackedContext['parts'];
  pruned: string[];
  warnings: string[];
  notices: string[];
  /** Tokens the file context was fitted into (token_budget − template overhead in the template flow); null when unlimited. */
  contextBudgetTokens?: number | null;
}

export interface BuiltPrompt {
  prompt: string;
  /** The template rendered, or null for the legacy plain prompt. */
  template: string | null;
  outputSchema: OutputSchema;
  /** Instruction files to hand to the CLI; empty when they were rendered into the prompt. */
  instructionFiles: string[];
  stats: PromptStats;
}

/** The packing functions, injectable for tests of this layer alone. */
export interface PackingDeps {
  packFileContext(opts: PackOptions): Promise<PackedContext>;
  packContext(opts: PackOptions & { task: string }): Promise<PackedContext>;
}

async function defaultPacking(): Promise<PackingDeps> {
  return import('../context/pack.ts');
}

function part(key: string, text: string, tokenizer: TokenizerName): PackedContext['parts'][number] {
  return { key, tokens: estimateTokens(text, tokenizer), bytes: Buffer.byteLength(text), files: [], pruned: false };
}

/** Legacy flow: instruction files appended as titled sections. */
function appendInstructions(prompt: string, instructions: InstructionText[]): string {
  if (!instructions.length) return prompt;
  const sections = instructions.map((file) => `## Instructions: ${file.name}\n\n${file.content.trimEnd()}`);
  return `${prompt.trimEnd()}\n\n${sections.join('\n\n')}\n`;
}

export async function buildPrompt(opts: BuildPromptOptions, deps?: Partial<PackingDeps>): Promise<BuiltPrompt> {
  const tokenizer = opts.tokenizer ?? 'chars';
  await loadTokenizer(tokenizer);
  const packing = { ...(deps?.packFileContext && deps.packContext ? {} : await defaultPacking()), ...deps } as PackingDeps;
  const { role } = opts;
  const outputSchema = resolveOutputSchema(role);
  const chosen = chooseTemplate(role);
  const instructionFiles = opts.instructionsAsArguments ? await instructionPaths(role.instructions, role.name) : [];
  const instructions = opts.instructionsAsArguments ? [] : await readInstructions(role.instructions, role.name);
  const packOptions: PackOptions = {
    role,
    repoRoot: opts.repoRoot,
    targets: opts.targets,
    extraContext: opts.extraContext,
    registry: opts.registry,
    tokenizer,
    ...(opts.notice ? { notice: opts.notice } : {}),
  };

  let prompt: string;
  let packed: PackedContext;
  const extraParts: PackedContext['parts'] = [];
  let template: string | null = null;
  if (chosen === null) {
    packed = await packing.packContext({ ...packOptions, task: opts.task });
    prompt = appendInstructions(packed.text, instructions);
    if (instructions.length) extraParts.push(part('instructions', instructions.map((i) => i.content).join('\n'), tokenizer));
  } else {
    // Resolve the template before packing: a bad name should fail fast, not after reading files.
    const templates = await loadTemplateSet(opts.repoRoot);
    template = getTemplate(templates, chosen).name;
    const renderer = createRenderer(templates);
    packed = await packing.packFileContext(packOptions);
    const data = templateData({ role, task: opts.task, context: packed.text, targets: opts.targets, extraContext: opts.extraContext, instructions, outputSchema });
    prompt = `${renderer.render(template, data as unknown as Record<string, unknown>).trimEnd()}\n`;
    extraParts.push(part('system_prompt', role.system_prompt, tokenizer), part('task', opts.task, tokenizer));
    if (instructions.length) extraParts.push(part('instructions', instructions.map((i) => i.content).join('\n'), tokenizer));
  }

  const promptTokens = estimateTokens(prompt, tokenizer);
  const parts = [...packed.parts, ...extraParts];
  if (template !== null) {
    // What the template itself adds: headings, guidance, output requirements and schema.
    const kept = parts.filter((p) => !p.pruned);
    const tokens = Math.max(0, promptTokens - kept.reduce((sum, p) => sum + p.tokens, 0));
    const bytes = Math.max(0, Buffer.byteLength(prompt) - kept.reduce((sum, p) => sum + p.bytes, 0));
    parts.push({ key: 'template', tokens, bytes, files: [], pruned: false });
  }
  const warnings = [...packed.warnings];
  const budget = role.context.token_budget;
  if (typeof budget === 'number' && promptTokens > budget) {
    warnings.push(`The prompt is about ${promptTokens} tokens, over the role's token_budget of ${budget}: the system prompt, task, instructions and always_include are never pruned.`);
  }
  return {
    prompt,
    template,
    outputSchema,
    instructionFiles,
    stats: {
      promptTokens,
      parts,
      pruned: [...packed.pruned],
      warnings,
      notices: [...packed.notices],
      contextBudgetTokens: Number.isFinite(packed.budgetTokens) ? packed.budgetTokens : null,
    },
  };
}

/**
 * Builds the exact prompt a role's CLI receives (seed 000 Task 2's build_full_prompt): pack the
 * file context within token_budget − TEMPLATE_OVERHEAD, render the role's template with strict
 * data, and report sizes. Roles without a template get seed 002's legacy prompt instead
 * (system prompt + task + files + extra context, from the packer's packContext).
 */
import type { PackedContext, PackOptions } from '../context/types.ts';
import { estimateTokens, loadTokenizer, type TokenizerName } from '../context/tokens.ts';
import { answerFormat } from '../output/answer-format.ts';
import { wantsLegacyGrammar } from '../output/legacy.ts';
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
  /** The repository may run its own code (core/trust): its .supervisor/prompts templates and its repomix. Default: not. */
  trustedRepo?: boolean;
  registry: Registry;
  /** The adapter takes instruction files as arguments (`instructions: 'argument'`). */
  instructionsAsArguments: boolean;
  tokenizer?: TokenizerName;
  /** false: no secret scan of what is packed (--no-secret-scan). */
  secretScan?: boolean;
  notice?: (m: string) => void;
  /** Review this commit range instead of the staged change. */
  gitRange?: { base: string; head: string };
}

export interface PromptStats {
  /** Estimated tokens of the whole prompt. */
  promptTokens: number;
  /** The packed parts, then (template flow) system_prompt, task, instructions and template text. */
  parts: PackedContext['parts'];
  pruned: string[];
  /** Files the budget left out whole, and files it cut with a marker (part keys for parts without files). */
  leftOut?: string[];
  truncated?: string[];
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
  return { key, tokens: estimateTokens(text, tokenizer), bytes: Buffer.byteLength(text), files: [], pruned: false, leftOut: [], truncated: [] };
}

/** Legacy flow: instruction files appended as titled sections. */
function appendInstructions(prompt: string, instructions: InstructionText[]): string {
  if (!instructions.length) return prompt;
  const sections = instructions.map((file) => `## Instructions: ${file.name}\n\n${file.content.trimEnd()}`);
  return `${prompt.trimEnd()}\n\n${sections.join('\n\n')}\n`;
}

interface Flow {
  prompt: string;
  template: string | null;
  packed: PackedContext;
}

/** Template flow: pack the file context (budget minus overhead), then render the template. */
async function templateFlow(name: string, opts: BuildPromptOptions, pack: PackOptions, packing: PackingDeps, instructions: InstructionText[], outputSchema: OutputSchema): Promise<Flow> {
  // Resolve the template before packing: a bad name should fail fast, not after reading files.
  const templates = await loadTemplateSet(opts.repoRoot, { trusted: opts.trustedRepo === true, ...(opts.notice ? { notice: opts.notice } : {}) });
  const template = getTemplate(templates, name).name;
  const renderer = createRenderer(templates);
  const { role } = opts;
  const outputFormat = answerFormat({
    registry: opts.registry,
    parser: role.parser ?? undefined,
    schema: outputSchema,
    role: { name: role.name, baseRole: role.base_role },
    legacy: wantsLegacyGrammar(role),
    schemaInPrompt: true,
  });
  const packed = await packing.packFileContext(pack);
  const data = templateData({ role, task: opts.task, context: packed.text, targets: opts.targets, extraContext: opts.extraContext, instructions, outputSchema, outputFormat });
  const prompt = `${renderer.render(template, data as unknown as Record<string, unknown>).trimEnd()}\n`;
  return { prompt, template, packed };
}

/** Legacy flow: the packer assembles the whole prompt; instruction files follow it. */
async function legacyFlow(opts: BuildPromptOptions, pack: PackOptions, packing: PackingDeps, instructions: InstructionText[]): Promise<Flow> {
  const packed = await packing.packContext({ ...pack, task: opts.task });
  return { prompt: appendInstructions(packed.text, instructions), template: null, packed };
}

/** Sizes: the packed parts, then what the prompt adds (system prompt, task, instructions, template text). */
function promptStats(flow: Flow, opts: BuildPromptOptions, instructions: InstructionText[], tokenizer: TokenizerName): PromptStats {
  const promptTokens = estimateTokens(flow.prompt, tokenizer);
  const parts = [...flow.packed.parts];
  if (flow.template !== null) parts.push(part('system_prompt', opts.role.system_prompt, tokenizer), part('task', opts.task, tokenizer));
  if (instructions.length) parts.push(part('instructions', instructions.map((i) => i.content).join('\n'), tokenizer));
  if (flow.template !== null) {
    // What the template itself adds: headings, guidance, output requirements and schema.
    const kept = parts.filter((p) => !p.pruned);
    const tokens = Math.max(0, promptTokens - kept.reduce((sum, p) => sum + p.tokens, 0));
    const bytes = Math.max(0, Buffer.byteLength(flow.prompt) - kept.reduce((sum, p) => sum + p.bytes, 0));
    parts.push({ key: 'template', tokens, bytes, files: [], pruned: false, leftOut: [], truncated: [] });
  }
  const warnings = [...flow.packed.warnings];
  const budget = opts.role.context.token_budget;
  if (typeof budget === 'number' && promptTokens > budget) {
    warnings.push(`The prompt is about ${promptTokens} tokens, over the role's token_budget of ${budget}: the system prompt, task, instructions and always_include are never pruned.`);
  }
  const { packed } = flow;
  return {
    promptTokens,
    parts,
    pruned: [...packed.pruned],
    leftOut: packed.parts.flatMap((p) => p.leftOut),
    truncated: packed.parts.flatMap((p) => p.truncated),
    warnings,
    notices: [...packed.notices],
    contextBudgetTokens: Number.isFinite(packed.budgetTokens) ? packed.budgetTokens : null,
  };
}

export async function buildPrompt(opts: BuildPromptOptions, deps?: Partial<PackingDeps>): Promise<BuiltPrompt> {
  const tokenizer = opts.tokenizer ?? 'chars';
  await loadTokenizer(tokenizer);
  const packing = { ...(deps?.packFileContext && deps.packContext ? {} : await defaultPacking()), ...deps } as PackingDeps;
  const { role } = opts;
  const outputSchema = resolveOutputSchema(role);
  const instructionFiles = opts.instructionsAsArguments ? await instructionPaths(role.instructions, role.name) : [];
  const instructions = opts.instructionsAsArguments ? [] : await readInstructions(role.instructions, role.name);
  const pack: PackOptions = {
    role,
    repoRoot: opts.repoRoot,
    ...(opts.trustedRepo ? { trustedRepo: true } : {}),
    targets: opts.targets,
    extraContext: opts.extraContext,
    registry: opts.registry,
    tokenizer,
    ...(opts.secretScan === false ? { secretScan: false } : {}),
    ...(opts.notice ? { notice: opts.notice } : {}),
    ...(opts.gitRange ? { gitRange: opts.gitRange } : {}),
  };
  const chosen = chooseTemplate(role);
  const flow = chosen === null ? await legacyFlow(opts, pack, packing, instructions) : await templateFlow(chosen, opts, pack, packing, instructions, outputSchema);
  return { prompt: flow.prompt, template: flow.template, outputSchema, instructionFiles, stats: promptStats(flow, opts, instructions, tokenizer) };
}

/**
 * Context packing, the core's half: gathers the parts (core + packer plugins), then fits them
 * into the token budget. Two flows, as in seeds 000 and 002:
 * - packFileContext: the template flow. File context only (the template adds system prompt
 *   and task), budget reduced by TEMPLATE_OVERHEAD_CHARS, always_include protected.
 * - packContext: the legacy flow. The whole prompt (system prompt + task + files), with
 *   system_prompt, task and always_include protected.
 */
import type { Role } from '../roles/role.ts';
import { combineFileContext, packWithBudget, type BudgetResult, type Part } from './budget.ts';
import { CHARS_PER_TOKEN, MARKERS, TEMPLATE_OVERHEAD_CHARS } from './constants.ts';
import { contextErrors } from './errors.ts';
import { gatherParts } from './gather.ts';
import type { MergedPart, PackerHost } from './packers.ts';
import { createPathGuard, type PathGuard } from './path-safety.ts';
import { estimateTokens, loadTokenizer, type TokenizerName } from './tokens.ts';
import type { PackedContext, PackOptions } from './types.ts';

/** The total budget in tokens: the caller's, else the role's token_budget, else none (Infinity). */
function resolveBudget(role: Role, budgetTokens: number | undefined): number {
  const value = budgetTokens ?? role.context.token_budget;
  if (value === undefined || value === null) return Number.POSITIVE_INFINITY;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) throw contextErrors.budgetInvalid(value);
  return value;
}

interface Prepared {
  host: PackerHost;
  guard: PathGuard;
  targets: string[];
  tokenizer: TokenizerName;
  notices: string[];
  warnings: string[];
}

async function prepare(opts: PackOptions): Promise<Prepared> {
  const tokenizer = opts.tokenizer ?? 'chars';
  await loadTokenizer(tokenizer);
  const guard = createPathGuard(opts.repoRoot);
  // Targets are named explicitly: one outside the repository stops the pack before any read.
  const targets = [...new Set(opts.targets.map((t) => guard.normalise(t)))];
  await Promise.all(targets.map((t) => guard.resolve(t)));
  const notices: string[] = [];
  const warnings: string[] = [];
  const host: PackerHost = {
    registry: opts.registry,
    guard,
    env: opts.env ?? process.env,
    notice(message) {
      notices.push(message);
      opts.notice?.(message);
    },
    warn: (message) => void warnings.push(message),
  };
  return { host, guard, targets, tokenizer, notices, warnings };
}

function finish(parts: Map<string, MergedPart>, result: BudgetResult, budgetTokens: number, prepared: Prepared): PackedContext {
  const { tokenizer, notices, warnings, host } = prepared;
  const prunedSet = new Set(result.pruned);
  const packedParts = [...parts].map(([key, part]) => ({
    key,
    tokens: estimateTokens(part.content, tokenizer),
    bytes: Buffer.byteLength(part.content),
    files: part.files,
    pruned: prunedSet.has(key),
  }));
  if (result.pruned.length) {
    const dropped = packedParts.filter((p) => p.pruned).map((p) => `${p.key} (~${p.tokens} tokens)`);
    host.notice(`budget: pruned ${dropped.join(', ')} to fit ${budgetTokens} tokens`);
  }
  return {
    text: result.text,
    parts: packedParts,
    pruned: result.pruned,
    notices,
    warnings: [...warnings, ...result.warnings],
    estimatedTokens: estimateTokens(result.text, tokenizer),
    budgetTokens,
  };
}

const toParts = (parts: Map<string, MergedPart>): Part[] => [...parts].map(([key, p]) => ({ key, content: p.content }));

/** Template flow: file context only, fitted into token_budget − TEMPLATE_OVERHEAD_CHARS / 4. */
export async function packFileContext(opts: PackOptions): Promise<PackedContext> {
  const prepared = await prepare(opts);
  const total = resolveBudget(opts.role, opts.budgetTokens);
  const fileBudget = Math.max(0, total - Math.floor(TEMPLATE_OVERHEAD_CHARS / CHARS_PER_TOKEN));
  const parts = await gatherParts(opts, prepared.host, prepared.targets);
  if (fileBudget === 0) {
    const result: BudgetResult = {
      text: MARKERS.overheadExceedsBudget,
      pruned: [...parts.keys()],
      warnings: [`Template overhead (~${TEMPLATE_OVERHEAD_CHARS / CHARS_PER_TOKEN} tokens) exceeds the token budget of ${total}; no file context included`],
    };
    return finish(parts, result, fileBudget, prepared);
  }
  const result = combineFileContext(toParts(parts), fileBudget, opts.role.context.priority_order, prepared.tokenizer);
  return finish(parts, result, fileBudget, prepared);
}

/** Legacy flow: the whole prompt (system prompt, "## Task", files, extra sections) within token_budget. */
export async function packContext(opts: PackOptions & { task: string }): Promise<PackedContext> {
  const prepared = await prepare(opts);
  const total = resolveBudget(opts.role, opts.budgetTokens);
  const gathered = await gatherParts(opts, prepared.host, prepared.targets);
  const parts = new Map<string, MergedPart>([
    ['system_prompt', { content: opts.role.system_prompt ?? '', files: [] }],
    ['task', { content: `## Task\n\n${opts.task}`, files: [] }],
  ]);
  // Seed order: target files come before always_include in the legacy prompt.
  const order = ['target_file', 'always_include'];
  for (const key of order) if (gathered.has(key)) parts.set(key, gathered.get(key)!);
  for (const [key, part] of gathered) if (!parts.has(key)) parts.set(key, part);
  const result = packWithBudget(toParts(parts), total, prepared.tokenizer);
  return finish(parts, result, total, prepared);
}

/**
 * Context packing, the core's half: gathers the parts (core + packer plugins), then fits them
 * into the token budget. Two flows, as in seeds 000 and 002:
 * - packFileContext: the template flow. File context only (the template adds system prompt
 *   and task), budget reduced by TEMPLATE_OVERHEAD_CHARS, always_include protected.
 * - packContext: the legacy flow. The whole prompt (system prompt + task + files), with
 *   system_prompt, task and always_include protected.
 */
import type { Role } from '../roles/role.ts';
import { combineFileContext, createMeasure, packWithBudget, type BudgetResult, type Measure, type Part } from './budget.ts';
import { lazyCount } from './lazy-count.ts';
import { CHARS_PER_TOKEN, MARKERS, TEMPLATE_OVERHEAD_CHARS } from '../files/constants.ts';
import { contextErrors } from './errors.ts';
import { gatherParts, type Target } from './gather.ts';
import { scannerOf, type MergedPart, type PackerHost } from './packers.ts';
import { createPathGuard } from './path-safety.ts';
import { NO_SECRET_SCAN } from '../secrets/secret-scan.ts';
import { checkTokenizer, loadTokenizer } from './tokens.ts';
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
  targets: Target[];
  measure: Measure;
  notices: string[];
  warnings: string[];
}

/**
 * The tokenizer is loaded only when the budget needs counts (o200k takes a moment and some
 * memory to load); a caller that reads the result's counts without a budget loads it first
 * (loadTokenizer), as buildPrompt and `pack --stats` do.
 */
async function prepare(opts: PackOptions, budgetTokens: number): Promise<Prepared> {
  const tokenizer = opts.tokenizer ?? 'chars';
  checkTokenizer(tokenizer);
  if (Number.isFinite(budgetTokens)) await loadTokenizer(tokenizer);
  const guard = createPathGuard(opts.repoRoot);
  // Targets are named explicitly: one outside the repository stops the pack before any read.
  const paths = [...new Set(opts.targets.map((t) => guard.normalise(t)))];
  const targets = await Promise.all(paths.map(async (path) => ({ path, absolute: await guard.resolve(path) })));
  const notices: string[] = [];
  const warnings: string[] = [];
  const host: PackerHost = {
    registry: opts.registry,
    guard,
    trustedRepo: opts.trustedRepo === true,
    env: opts.env ?? process.env,
    notice(message) {
      notices.push(message);
      opts.notice?.(message);
    },
    warn: (message) => void warnings.push(message),
    ...((opts.secretScan ?? opts.role.context.secret_scan) === false ? { scanner: NO_SECRET_SCAN } : {}),
  };
  return { host, targets, measure: createMeasure(tokenizer, opts.repoRoot, opts.env), notices, warnings };
}

/** The parts as the budget sees them, with their files so they can be kept file by file. */
const toParts = (parts: Map<string, MergedPart>): Part[] => [...parts].map(([key, p]) => ({ key, content: p.content, files: p.files }));

/** One line on what the budget left out: parts, files, cuts. */
function leftOutNotice(result: BudgetResult, budgetTokens: number): string | null {
  const said: string[] = [];
  if (result.pruned.length) said.push(`left out ${result.pruned.join(', ')}`);
  for (const o of result.outcomes) {
    const files = o.content === null ? [] : o.leftOut;
    if (files.length) said.push(`left out ${files.length} file${files.length === 1 ? '' : 's'} of ${o.key} (${files.slice(0, 3).join(', ')}${files.length > 3 ? ', ...' : ''})`);
    if (o.truncated.length) said.push(`cut ${o.truncated.join(', ')} with a marker`);
  }
  return said.length ? `budget: ${said.join('; ')} to fit ${budgetTokens} tokens` : null;
}

function finish(parts: Map<string, MergedPart>, list: Part[], result: BudgetResult, budgetTokens: number, prepared: Prepared): PackedContext {
  const { measure, notices, warnings, host } = prepared;
  // Counted only when read: `pack` without --stats or --json reports no count, so it counts nothing.
  const packedParts = list.map((part, i) => {
    const outcome = result.outcomes[i]!;
    const kept = outcome.content ?? '';
    const leftOut = new Set(outcome.leftOut);
    let bytes: number | undefined;
    return lazyCount(
      {
        key: part.key,
        // Measured when read, as the tokens are counted: a two-byte text of megabytes takes milliseconds.
        get bytes() {
          return (bytes ??= Buffer.byteLength(kept));
        },
        files: outcome.content === null ? [] : parts.get(part.key)!.files.filter((f) => !leftOut.has(f)),
        pruned: outcome.content === null,
        leftOut: outcome.content === null ? [...parts.get(part.key)!.files] : outcome.leftOut,
        truncated: outcome.truncated,
      },
      () => saved(measure, measure.tokens(kept)),
    );
  });
  measure.save(); // the counts the budget took
  scannerOf(host).save?.(); // the secret scan's clean verdicts
  const notice = leftOutNotice(result, budgetTokens);
  if (notice) host.notice(notice);
  return lazyCount(
    {
      // The parts are counted as the text they keep, the whole as its text.
      prepareCounts: () => measure.countAhead([result.text, ...list.map((_, i) => result.outcomes[i]?.content ?? '')]),
      text: result.text,
      parts: packedParts,
      pruned: result.pruned,
      notices,
      warnings: [...warnings, ...result.warnings],
      budgetTokens,
    },
    () => saved(measure, measure.tokens(result.text)),
    'estimatedTokens',
  );
}

/** A count, after keeping the counts taken for it (a no-op when none are new). */
function saved(measure: Measure, count: number): number {
  measure.save();
  return count;
}

/** Template flow: file context only, fitted into token_budget − TEMPLATE_OVERHEAD_CHARS / 4. */
export async function packFileContext(opts: PackOptions): Promise<PackedContext> {
  const total = resolveBudget(opts.role, opts.budgetTokens);
  const prepared = await prepare(opts, total);
  const reserve = opts.reserveTemplate === false ? 0 : Math.floor(TEMPLATE_OVERHEAD_CHARS / CHARS_PER_TOKEN);
  const fileBudget = Math.max(0, total - reserve);
  if (fileBudget === 0) {
    // Known before anything is read: nothing could be kept, so nothing is gathered.
    const result: BudgetResult = {
      text: MARKERS.overheadExceedsBudget,
      outcomes: [],
      pruned: [],
      warnings: [`Template overhead (~${TEMPLATE_OVERHEAD_CHARS / CHARS_PER_TOKEN} tokens) exceeds the token budget of ${total}; no file context included`],
    };
    return finish(new Map(), [], result, fileBudget, prepared);
  }
  const parts = await gatherParts(opts, prepared.host, prepared.targets);
  const list = toParts(parts);
  return finish(parts, list, combineFileContext(list, fileBudget, opts.role.context.priority_order, prepared.measure), fileBudget, prepared);
}

/** Legacy flow: the whole prompt (system prompt, "## Task", files, extra sections) within token_budget. */
export async function packContext(opts: PackOptions & { task: string }): Promise<PackedContext> {
  const total = resolveBudget(opts.role, opts.budgetTokens);
  const prepared = await prepare(opts, total);
  const gathered = await gatherParts(opts, prepared.host, prepared.targets);
  const parts = new Map<string, MergedPart>([
    ['system_prompt', { content: opts.role.system_prompt ?? '', files: [] }],
    ['task', { content: `## Task\n\n${opts.task}`, files: [] }],
  ]);
  // Seed order: target files come before always_include in the legacy prompt.
  const order = ['target_file', 'always_include'];
  for (const key of order) if (gathered.has(key)) parts.set(key, gathered.get(key)!);
  for (const [key, part] of gathered) if (!parts.has(key)) parts.set(key, part);
  const list = toParts(parts);
  return finish(parts, list, packWithBudget(list, total, prepared.measure), total, prepared);
}

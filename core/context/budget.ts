/**
 * Fitting parts into a token budget, in the two orders the seeds give. Parts keep their
 * order in the text; pruning only decides which are dropped.
 *
 * Sizes are measured once per part and summed (plus the "\n\n" joins), which for the "chars"
 * tokenizer is exactly the seeds' `len("\n\n".join(parts)) <= budget * 4`.
 */
import { CHARS_PER_TOKEN, FILE_CONTEXT_PROTECTED, MARKERS, PART_PRIORITY, PROMPT_LEVEL_KEYS, PROTECTED_KEYS } from './constants.ts';
import { estimateTokens, type TokenizerName } from './tokens.ts';

export interface Part {
  key: string;
  content: string;
}

export interface BudgetResult {
  text: string;
  /** Keys dropped, in the order they were dropped. */
  pruned: string[];
  warnings: string[];
}

const JOIN = '\n\n';

/** Cost of joined parts in budget units: characters for "chars", tokens otherwise. */
function createMeasure(tokenizer: TokenizerName) {
  const unit = (text: string) => (tokenizer === 'chars' ? text.length : estimateTokens(text, tokenizer));
  const joinCost = unit(JOIN);
  const cache = new Map<Part, number>();
  const cost = (parts: Part[]) => {
    let total = parts.length > 1 ? joinCost * (parts.length - 1) : 0;
    for (const part of parts) {
      let size = cache.get(part);
      if (size === undefined) cache.set(part, (size = unit(part.content)));
      total += size;
    }
    return total;
  };
  return cost;
}

function limitOf(budgetTokens: number, tokenizer: TokenizerName): number {
  return tokenizer === 'chars' ? budgetTokens * CHARS_PER_TOKEN : budgetTokens;
}

const join = (parts: Part[]) => parts.map((p) => p.content).join(JOIN);

/**
 * Drops keys in `dropOrder` one by one (skipping protected and absent ones) until the kept
 * parts fit; returns the kept parts, or null when even dropping every listed key is not enough.
 */
function pruneUntilFits(parts: Part[], dropOrder: string[], fits: (kept: Part[]) => boolean, pruned: string[]): Part[] | null {
  let kept = parts;
  for (const key of dropOrder) {
    if (!kept.some((p) => p.key === key)) continue;
    kept = kept.filter((p) => p.key !== key);
    pruned.push(key);
    if (fits(kept)) return kept;
  }
  return null;
}

/** The role's priority_order less prompt-level keys, as far as it names parts present (seed: _combine_file_context). */
export function resolveFilePriority(rolePriority: readonly string[] | undefined, presentKeys: ReadonlySet<string>): string[] {
  const mapped: string[] = [];
  for (const key of rolePriority ?? []) {
    if (!PROMPT_LEVEL_KEYS.has(key) && presentKeys.has(key) && !mapped.includes(key)) mapped.push(key);
  }
  return mapped.length > 0 ? mapped : [...PART_PRIORITY];
}

/**
 * Template flow (seed `_combine_file_context`): `always_include` is protected; the rest is
 * dropped lowest priority first, by the role's priority_order or PART_PRIORITY.
 * Where the seed then returns protected content only, parts outside the priority list
 * (extra sections such as test output) are first dropped one at a time, last first, so any
 * that still fit survive.
 */
export function combineFileContext(parts: Part[], budgetTokens: number, rolePriority: readonly string[] | undefined, tokenizer: TokenizerName): BudgetResult {
  const cost = createMeasure(tokenizer);
  const limit = limitOf(budgetTokens, tokenizer);
  const fits = (kept: Part[]) => cost(kept) <= limit;
  if (budgetTokens === Number.POSITIVE_INFINITY || fits(parts)) return { text: join(parts), pruned: [], warnings: [] };

  const priority = resolveFilePriority(rolePriority, new Set(parts.map((p) => p.key)));
  const prunable = parts.filter((p) => !FILE_CONTEXT_PROTECTED.has(p.key));
  const unlisted = prunable.map((p) => p.key).filter((k) => !priority.includes(k)).reverse();
  const pruned: string[] = [];
  const dropOrder = [...[...priority].reverse(), ...unlisted].filter((k) => !FILE_CONTEXT_PROTECTED.has(k));
  const kept = pruneUntilFits(parts, dropOrder, fits, pruned);
  if (kept) return { text: join(kept), pruned, warnings: [] };

  const protectedOnly = parts.filter((p) => FILE_CONTEXT_PROTECTED.has(p.key));
  const warnings = fits(protectedOnly) ? [] : [budgetWarning(protectedOnly, budgetTokens, tokenizer, cost)];
  return { text: join(protectedOnly), pruned, warnings };
}

/**
 * Legacy flow (seed `_pack_with_budget`): system_prompt, task and always_include are never
 * pruned. Unlisted keys (extra context) go first, last added first; then the listed keys,
 * tree first and target_file last. If the protected parts alone are over budget they are
 * kept whole and the text says so.
 */
export function packWithBudget(parts: Part[], budgetTokens: number, tokenizer: TokenizerName): BudgetResult {
  const cost = createMeasure(tokenizer);
  const limit = limitOf(budgetTokens, tokenizer);
  const fits = (kept: Part[]) => cost(kept) <= limit;
  if (budgetTokens === Number.POSITIVE_INFINITY || fits(parts)) return { text: join(parts), pruned: [], warnings: [] };

  const prunableKeys = parts.map((p) => p.key).filter((k) => !PROTECTED_KEYS.has(k));
  const unlisted = prunableKeys.filter((k) => !PART_PRIORITY.includes(k)).reverse();
  const pruned: string[] = [];
  const kept = pruneUntilFits(parts, [...unlisted, ...[...PART_PRIORITY].reverse()], fits, pruned);
  if (kept) return { text: join(kept), pruned, warnings: [] };

  const protectedOnly = parts.filter((p) => PROTECTED_KEYS.has(p.key));
  const text = join(protectedOnly);
  if (fits(protectedOnly)) return { text, pruned, warnings: [] };
  return {
    text: `${text}${JOIN}${MARKERS.protectedExceedsBudget}`,
    pruned,
    warnings: [budgetWarning(protectedOnly, budgetTokens, tokenizer, cost)],
  };
}

function budgetWarning(protectedOnly: Part[], budgetTokens: number, tokenizer: TokenizerName, cost: (p: Part[]) => number): string {
  const used = tokenizer === 'chars' ? Math.floor(cost(protectedOnly) / CHARS_PER_TOKEN) : cost(protectedOnly);
  const keys = protectedOnly.map((p) => p.key).join(', ') || 'nothing';
  return `Context exceeds budget even with required content only: ${keys} take ~${used} tokens, budget ${budgetTokens}`;
}

/**
 * Fitting parts into a token budget, in the two orders the seeds give. Parts keep their
 * order in the text; pruning only decides which are dropped.
 *
 * Each part is measured once (the Measure caches it) and sizes are summed, plus the "\n\n"
 * joins: for the "chars" tokenizer exactly the seeds' `len("\n\n".join(parts)) <= budget * 4`,
 * for "o200k" the parts' own counts — the same numbers the stats report, so no text is
 * tokenized twice.
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
  /** Estimated tokens of `text`, from the parts' counts. */
  tokens: number;
}

const JOIN = '\n\n';

/** Sizes of parts, each measured once. */
export interface Measure {
  /** Cost of the joined parts in budget units: characters for "chars", tokens otherwise. */
  cost(parts: readonly Part[]): number;
  /** Estimated tokens of the joined parts. */
  tokens(parts: readonly Part[]): number;
  /** A budget in tokens, in the units of `cost`. */
  limit(budgetTokens: number): number;
}

export function createMeasure(tokenizer: TokenizerName): Measure {
  const chars = tokenizer === 'chars';
  const unit = (text: string) => (chars ? text.length : estimateTokens(text, tokenizer));
  const joinCost = unit(JOIN);
  const sizes = new WeakMap<Part, number>();
  const cost = (parts: readonly Part[]) => {
    let total = parts.length > 1 ? joinCost * (parts.length - 1) : 0;
    for (const part of parts) {
      let size = sizes.get(part);
      if (size === undefined) sizes.set(part, (size = unit(part.content)));
      total += size;
    }
    return total;
  };
  return {
    cost,
    tokens: (parts) => (chars ? Math.floor(cost(parts) / CHARS_PER_TOKEN) : cost(parts)),
    limit: (budgetTokens) => (chars ? budgetTokens * CHARS_PER_TOKEN : budgetTokens),
  };
}

/** The role's priority_order less prompt-level keys, as far as it names parts present (seed: _combine_file_context). */
export function resolveFilePriority(rolePriority: readonly string[] | undefined, presentKeys: ReadonlySet<string>): string[] {
  const mapped: string[] = [];
  for (const key of rolePriority ?? []) {
    if (!PROMPT_LEVEL_KEYS.has(key) && presentKeys.has(key) && !mapped.includes(key)) mapped.push(key);
  }
  return mapped.length > 0 ? mapped : [...PART_PRIORITY];
}

interface Rules {
  /** Keys to drop, first dropped first; keys absent from the parts are passed over. */
  dropOrder: string[];
  protectedKeys: ReadonlySet<string>;
  /** Added to the text when the protected parts alone are over the budget. */
  overMarker?: string;
}

/**
 * Drops keys in the rules' order one by one until the kept parts fit. When even the protected
 * parts alone do not, they are kept whole (with the marker, if any) and a warning says so.
 */
function fit(parts: Part[], budgetTokens: number, measure: Measure, rules: Rules): BudgetResult {
  const limit = measure.limit(budgetTokens);
  const fits = (kept: Part[]) => measure.cost(kept) <= limit;
  const result = (kept: Part[], pruned: string[], warnings: string[] = []): BudgetResult => ({
    text: kept.map((p) => p.content).join(JOIN),
    pruned,
    warnings,
    tokens: measure.tokens(kept),
  });
  if (budgetTokens === Number.POSITIVE_INFINITY || fits(parts)) return result(parts, []);

  const pruned: string[] = [];
  let kept = parts;
  for (const key of rules.dropOrder) {
    if (rules.protectedKeys.has(key) || !kept.some((p) => p.key === key)) continue;
    kept = kept.filter((p) => p.key !== key);
    pruned.push(key);
    if (fits(kept)) return result(kept, pruned);
  }
  const protectedOnly = parts.filter((p) => rules.protectedKeys.has(p.key));
  const used = measure.tokens(protectedOnly);
  const keys = protectedOnly.map((p) => p.key).join(', ') || 'nothing';
  const warning = `Context exceeds budget even with required content only: ${keys} take ~${used} tokens, budget ${budgetTokens}`;
  const marked = rules.overMarker ? [...protectedOnly, { key: 'marker', content: rules.overMarker }] : protectedOnly;
  return result(marked, pruned, [warning]);
}

/**
 * Template flow (seed `_combine_file_context`): `always_include` is protected; the rest is
 * dropped lowest priority first, by the role's priority_order or PART_PRIORITY. Where the
 * seed then returns protected content only, parts outside the priority list (extra sections
 * such as test output) are first dropped one at a time, last first, so any that still fit survive.
 */
export function combineFileContext(parts: Part[], budgetTokens: number, rolePriority: readonly string[] | undefined, measure: Measure): BudgetResult {
  const priority = resolveFilePriority(rolePriority, new Set(parts.map((p) => p.key)));
  const unlisted = parts.map((p) => p.key).filter((k) => !priority.includes(k)).reverse();
  return fit(parts, budgetTokens, measure, { dropOrder: [...[...priority].reverse(), ...unlisted], protectedKeys: FILE_CONTEXT_PROTECTED });
}

/**
 * Legacy flow (seed `_pack_with_budget`): system_prompt, task and always_include are never
 * pruned. Unlisted keys (extra context) go first, last added first; then the listed keys,
 * tree first and target_file last. If the protected parts alone are over budget they are
 * kept whole and the text says so.
 */
export function packWithBudget(parts: Part[], budgetTokens: number, measure: Measure): BudgetResult {
  const unlisted = parts.map((p) => p.key).filter((k) => !PART_PRIORITY.includes(k)).reverse();
  const dropOrder = [...unlisted, ...[...PART_PRIORITY].reverse()];
  return fit(parts, budgetTokens, measure, { dropOrder, protectedKeys: PROTECTED_KEYS, overMarker: MARKERS.protectedExceedsBudget });
}

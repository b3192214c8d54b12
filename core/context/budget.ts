/**
 * Fitting parts into a token budget, in the two orders the seeds give. Parts keep their order
 * in the text; the budget decides what of each is kept (fill.ts does the filling):
 * protected parts always, then the others highest priority first, file by file within a part.
 */
import { FILE_CONTEXT_PROTECTED, MARKERS, PART_PRIORITY, PROMPT_LEVEL_KEYS, PROTECTED_KEYS } from '../files/constants.ts';
import { fillBudget, type BudgetResult, type Part } from './fill.ts';
import type { Measure } from './measure.ts';

export { createMeasure, type Measure } from './measure.ts';
export type { BudgetResult, Part, PartOutcome } from './fill.ts';

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
 * kept by the role's priority_order or PART_PRIORITY, highest first. Parts outside the priority
 * list (extra sections such as test output) come first: the seed drops them last.
 */
export function combineFileContext(parts: Part[], budgetTokens: number, rolePriority: readonly string[] | undefined, measure: Measure): BudgetResult {
  const priority = resolveFilePriority(rolePriority, new Set(parts.map((p) => p.key)));
  const unlisted = parts.map((p) => p.key).filter((k) => !priority.includes(k));
  return fillBudget(parts, budgetTokens, measure, { keepOrder: [...unlisted, ...priority], protectedKeys: FILE_CONTEXT_PROTECTED });
}

/**
 * Legacy flow (seed `_pack_with_budget`): system_prompt, task and always_include are never
 * pruned. Then target_file first and tree last; unlisted keys (extra context) come last, the
 * last added last. If the protected parts alone are over budget they are kept whole and the
 * text says so.
 */
export function packWithBudget(parts: Part[], budgetTokens: number, measure: Measure): BudgetResult {
  const unlisted = parts.map((p) => p.key).filter((k) => !PART_PRIORITY.includes(k));
  return fillBudget(parts, budgetTokens, measure, { keepOrder: [...PART_PRIORITY, ...unlisted], protectedKeys: PROTECTED_KEYS, overMarker: MARKERS.protectedExceedsBudget });
}

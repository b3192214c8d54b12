/**
 * The one table that turns a role's answer status into the run's status (seed 003).
 * v2 answers already say pass | gaps | error. Matching ignores case and surrounding space;
 * a status not in the table is `gaps` (the answer validated, but it did not claim success
 * in words we know, so a script must not read it as a pass). Which answer field holds the
 * word, and a role's own words for it, come from core/output/verdict.ts.
 */
import type { Verdict } from '../output/verdict.ts';

export type RunStatus = 'pass' | 'gaps' | 'error';

export const STATUS_TABLE: Readonly<Record<RunStatus, readonly string[]>> = Object.freeze({
  pass: ['PASS', 'SUCCESS', 'COMPLETE', 'COMPLETED', 'APPROVED'],
  gaps: ['GAPS', 'PARTIAL', 'NEEDS_REFINEMENT', 'CHANGES_REQUESTED', 'REJECTED', 'RETRY'],
  error: ['ERROR', 'FAILED', 'BLOCKED', 'STUCK'],
});

const BY_WORD = new Map<string, RunStatus>(
  (Object.entries(STATUS_TABLE) as [RunStatus, readonly string[]][]).flatMap(([status, words]) =>
    words.map((word) => [word, status] as const),
  ),
);

export interface MappedStatus {
  status: RunStatus;
  /** The answer's own status word, as given (null when the answer has none). */
  reported: string | null;
  /** False when the word is not in STATUS_TABLE (the run is then `gaps`). */
  known: boolean;
}

/** Maps a verdict word: the schema's own words first (`values`), then the table. */
export function mapStatus(reported: unknown, values?: Verdict['values']): MappedStatus {
  if (typeof reported !== 'string' || !reported.trim()) return { status: 'gaps', reported: null, known: false };
  const word = reported.trim().toUpperCase();
  const status = values?.get(word) ?? BY_WORD.get(word);
  return status ? { status, reported, known: true } : { status: 'gaps', reported, known: false };
}

/** The run status an answer claims, read from its verdict field. */
export function mapVerdict(output: Record<string, unknown>, verdict: Verdict): MappedStatus {
  return mapStatus(Object.hasOwn(output, verdict.field) ? output[verdict.field] : undefined, verdict.values);
}

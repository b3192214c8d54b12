/** Valibot pieces the adapters' envelope shapes share, and the reading of an envelope of the wrong shape. */
import * as v from 'valibot';
import type { Extraction, Metrics, ProcessResult } from '../../../core/plugin-api/index.ts';
import { emptyMetrics } from '../../../core/plugin-api/index.ts';
import { failure } from './failure.ts';
import { oneLine } from './json.ts';

/** A count or amount a CLI may leave out or print as null. */
export const num = v.optional(v.nullable(v.number()));

/** The first field valibot refused, e.g. `usage.input_tokens: Invalid type: Expected number but received "7"`. */
export function badField(issues: readonly v.BaseIssue<unknown>[]): string {
  const issue = issues[0];
  return issue ? oneLine(`${v.getDotPath(issue) ?? '(root)'}: ${issue.message}`, 160) : 'unknown shape';
}

/**
 * The extraction for JSON that is an envelope but not of the shape the adapter knows: no text,
 * `invalid_envelope` naming the first bad field. `metrics` default to the measured duration.
 */
export function invalidEnvelope(what: string, issues: readonly v.BaseIssue<unknown>[], result: ProcessResult, metrics?: Metrics): Extraction {
  return {
    text: null,
    metrics: metrics ?? { ...emptyMetrics(), durationMs: result.durationMs },
    failure: failure('invalid_envelope', `${what} has an unexpected shape (${badField(issues)})`),
  };
}

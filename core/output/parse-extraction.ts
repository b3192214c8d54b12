/**
 * Parses what an adapter extracted, in the engine's order: the final text, then the object the
 * CLI validated natively (claude's structured_output), then older texts newest first (cline's
 * rule); the first that passes wins. When none does, the first error is reported.
 */
import type { Extraction } from '../plugin/contracts.ts';
import { parseOutput, type ParseOutputOptions } from './parse-output.ts';
import { outputErrors } from './errors.ts';
import { validateOutput } from './validate-output.ts';

export function parseExtraction(extraction: Extraction, opts: ParseOutputOptions & { adapter: string }): Record<string, unknown> {
  const attempts: Array<() => Record<string, unknown>> = [];
  const text = extraction.text?.trim() ? extraction.text : null;
  if (text !== null) attempts.push(() => parseOutput(text, opts));
  if (extraction.structured !== undefined && extraction.structured !== null) attempts.push(() => validateOutput(opts.schema, extraction.structured));
  for (const alternate of extraction.alternates ?? []) if (alternate.trim()) attempts.push(() => parseOutput(alternate, opts));
  if (!attempts.length) throw outputErrors.noAnswerText(opts.adapter);
  let first: unknown;
  for (const attempt of attempts) {
    try {
      return attempt();
    } catch (error) {
      first ??= error;
    }
  }
  throw first;
}

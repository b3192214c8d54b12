/**
 * Parses what an adapter extracted: the CLI's natively validated object, the final text, then
 * older texts newest first (cline's rule); the first that passes wins. When none does, the
 * final text's error is the one reported (it is what the model was asked to get right).
 */
import type { Extraction } from '../plugin/contracts.ts';
import { parseOutput, type ParseOutputOptions } from './parse-output.ts';
import { outputErrors } from './errors.ts';
import { validateOutput } from './validate-output.ts';

export function parseExtraction(extraction: Extraction, opts: ParseOutputOptions & { adapter: string }): Record<string, unknown> {
  const attempts: Array<() => Record<string, unknown>> = [];
  if (extraction.text !== null && extraction.text !== undefined) attempts.push(() => parseOutput(extraction.text!, opts));
  if (extraction.structured !== undefined && extraction.structured !== null) attempts.unshift(() => validateOutput(opts.schema, extraction.structured));
  for (const text of extraction.alternates ?? []) attempts.push(() => parseOutput(text, opts));
  if (!attempts.length) throw outputErrors.noAnswerText(opts.adapter);
  const failures: unknown[] = [];
  for (const attempt of attempts) {
    try {
      return attempt();
    } catch (error) {
      failures.push(error);
    }
  }
  const structuredFirst = extraction.structured !== undefined && extraction.structured !== null && extraction.text != null;
  throw failures[structuredFirst ? 1 : 0];
}

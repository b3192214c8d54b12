/**
 * What an adapter extracted → the answer, the one place that knows the candidates' order and
 * which error wins: the final text, then the object the CLI validated natively (claude's
 * structured_output), then older texts newest first (cline's rule); the first that passes wins.
 * `run` (core/run/answer.ts) and `supervisor parse --cli` both read answers through here.
 */
import { isSupervisorError } from '../errors.ts';
import type { Extraction } from '../plugin-api/contracts.ts';
import { outputErrors } from './errors.ts';
import { parseOutput, type ParseOutputOptions } from './parse-output.ts';
import { validateOutput } from './validate-output.ts';

export type AnswerSource = 'text' | 'structured' | 'alternate';

/** Errors that make one candidate unusable (the model's fault); any other error stops the reading. */
const ANSWER_ERROR_CODES: readonly string[] = ['PARSE_NO_JSON', 'PARSE_UNRECOGNISED', 'PARSE_INVALID_JSON', 'OUTPUT_INVALID'];

/** "Nothing that looks like an answer": a structured answer's schema violations say more. */
const NOTHING_FOUND = new Set(['PARSE_NO_JSON', 'PARSE_UNRECOGNISED']);

export interface AnswerReaders {
  /** Model text → validated object (the role's parser and schema). */
  parse(text: string): Record<string, unknown>;
  /** The CLI's structured answer → validated object (validateOutput against the role's schema). */
  validate(value: unknown): Record<string, unknown>;
}

interface Candidate {
  source: AnswerSource;
  read(): Record<string, unknown>;
}

function candidates(extraction: Extraction, readers: AnswerReaders): Candidate[] {
  const out: Candidate[] = [];
  const text = extraction.text;
  if (text?.trim()) out.push({ source: 'text', read: () => readers.parse(text) });
  const structured = extraction.structured;
  if (structured !== undefined && structured !== null) out.push({ source: 'structured', read: () => readers.validate(structured) });
  for (const alternate of extraction.alternates ?? []) if (alternate.trim()) out.push({ source: 'alternate', read: () => readers.parse(alternate) });
  return out;
}

/**
 * The first candidate that passes, or null when the extraction holds none at all. When every
 * candidate fails, throws the first one's error, except that a structured answer's
 * OUTPUT_INVALID beats a text that simply has no answer in it (PARSE_NO_JSON /
 * PARSE_UNRECOGNISED): the CLI returned an object, so say what is wrong with it. Errors outside
 * ANSWER_ERROR_CODES (unknown parser, a plugin's bug) are thrown at once.
 */
export function readExtraction(extraction: Extraction, readers: AnswerReaders): { output: Record<string, unknown>; source: AnswerSource } | null {
  const list = candidates(extraction, readers);
  if (!list.length) return null;
  let chosen: unknown;
  for (const candidate of list) {
    try {
      return { output: candidate.read(), source: candidate.source };
    } catch (error) {
      if (!isSupervisorError(error) || !ANSWER_ERROR_CODES.includes(error.code)) throw error;
      const beats = candidate.source === 'structured' && error.code === 'OUTPUT_INVALID' && isSupervisorError(chosen) && NOTHING_FOUND.has(chosen.code);
      if (chosen === undefined || beats) chosen = error;
    }
  }
  throw chosen;
}

/** `supervisor parse --cli`: the answer of an extraction, parsed with parseOutput; no candidate at all is PARSE_NO_JSON. */
export function parseExtraction(extraction: Extraction, opts: ParseOutputOptions & { adapter: string }): Record<string, unknown> {
  const found = readExtraction(extraction, { parse: (text) => parseOutput(text, opts), validate: (value) => validateOutput(opts.schema, value) });
  if (!found) throw outputErrors.noAnswerText(opts.adapter);
  return found.output;
}

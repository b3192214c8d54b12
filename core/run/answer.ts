/**
 * From a finished CLI process to an answer or a failure class. The process decides first
 * (not found, interrupted, timeout), then the adapter's reading of the envelope, then the
 * answer itself, read by core/output's readExtraction (candidates' order, which error wins).
 * A non-zero exit only fails the attempt when no usable answer came with it: exit codes lie
 * in both directions (cli-formats.md), the envelope decides.
 */
import { isSupervisorError, wrapPluginError } from '../errors.ts';
import { readExtraction, type AnswerSource } from '../output/parse-extraction.ts';
import { validateOutput } from '../output/validate-output.ts';
import type { Extraction, Failure, FailureClass } from '../plugin-api/contracts.ts';
import type { RunProcessResult } from '../process/run-process.ts';

export type AnswerOutcome =
  | { ok: true; output: Record<string, unknown>; source: AnswerSource }
  | { ok: false; failure: Failure };

const DETAIL_CHARS = 1000;

/** The answer errors readExtraction reports → failure classes. */
const CLASS_BY_CODE: Record<string, FailureClass> = {
  PARSE_NO_JSON: 'no_json',
  PARSE_UNRECOGNISED: 'no_json',
  PARSE_INVALID_JSON: 'invalid_output',
  OUTPUT_INVALID: 'invalid_output',
};

export function clip(text: string, chars = DETAIL_CHARS): string {
  const flat = text.trim();
  return flat.length <= chars ? flat : `${flat.slice(0, chars)}…`;
}

/** Failures the process itself shows, before anything is read. */
export function processFailure(proc: RunProcessResult, bin: string, timeoutMs: number): Failure | null {
  if (proc.notFound) return { class: 'not_found', detail: `${bin} could not be started: ${proc.spawnError ?? 'not found on PATH'}` };
  if (proc.interrupted) return { class: 'interrupted', detail: `interrupted; ${bin} and its child processes were ended` };
  if (proc.timedOut) return { class: 'timeout', detail: `${bin} gave no answer within ${timeoutMs / 1000}s; its process tree was ended` };
  return null;
}

function nonzero(proc: RunProcessResult, bin: string): Failure {
  const how = proc.exitCode === null ? `was ended by ${proc.signal ?? 'a signal'}` : `exited with code ${proc.exitCode}`;
  const said = clip(proc.stderr || proc.stdout, 200);
  return { class: 'nonzero_exit', detail: said ? `${bin} ${how}: ${said}` : `${bin} ${how}` };
}

export interface ReadAnswerOptions {
  bin: string;
  /** The output JSON Schema a structured answer is validated against. */
  schema: Record<string, unknown>;
  /** Parses model text with the role's parser and schema (throws parse errors). */
  parse: (text: string) => Record<string, unknown>;
}

export function readAnswer(proc: RunProcessResult, extraction: Extraction, options: ReadAnswerOptions): AnswerOutcome {
  if (extraction.failure) return { ok: false, failure: { ...extraction.failure, detail: clip(extraction.failure.detail) } };
  const failed = proc.exitCode !== 0;
  const outputSchema = { name: 'output', file: '', schema: options.schema };
  let found: ReturnType<typeof readExtraction>;
  try {
    found = readExtraction(extraction, { parse: options.parse, validate: (value) => validateOutput(outputSchema, value) });
  } catch (error) {
    const cls = isSupervisorError(error) ? CLASS_BY_CODE[error.code] : undefined;
    // Anything else (unknown parser, a parser plugin's bug) is not the model's fault: stop.
    if (!cls) throw isSupervisorError(error) ? error : wrapPluginError('parser', 'parse', error);
    return { ok: false, failure: failed ? nonzero(proc, options.bin) : { class: cls, detail: clip((error as Error).message) } };
  }
  if (found) return { ok: true, ...found };
  return { ok: false, failure: failed ? nonzero(proc, options.bin) : { class: 'empty_output', detail: `${options.bin} returned no answer text` } };
}

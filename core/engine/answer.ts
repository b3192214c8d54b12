/**
 * From a finished CLI process to an answer or a failure class. The process decides first
 * (not found, interrupted, timeout), then the adapter's reading of the envelope, then the
 * parser: `text`, then `structured` (if it validates), then `alternates` newest first.
 * A non-zero exit only fails the attempt when no usable answer came with it: exit codes lie
 * in both directions (cli-formats.md), the envelope decides.
 */
import { isSupervisorError, wrapPluginError } from '../errors.ts';
import { formatViolations, validateJson } from '../json-schema.ts';
import type { Extraction, Failure, FailureClass } from '../plugin/contracts.ts';
import type { RunProcessResult } from '../process/run-process.ts';

export type AnswerOutcome =
  | { ok: true; output: Record<string, unknown>; source: 'text' | 'structured' | 'alternate' }
  | { ok: false; failure: Failure };

const DETAIL_CHARS = 1000;

/** Parse error codes (issue 6's parser contract) → failure classes. */
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
  schema: Record<string, unknown>;
  /** Parses model text with the role's parser and schema (throws parse errors). */
  parse: (text: string) => Record<string, unknown>;
}

export function readAnswer(proc: RunProcessResult, extraction: Extraction, options: ReadAnswerOptions): AnswerOutcome {
  if (extraction.failure) return { ok: false, failure: { ...extraction.failure, detail: clip(extraction.failure.detail) } };
  const failed = proc.exitCode !== 0;
  const text = extraction.text?.trim() ? extraction.text : null;
  const alternates = (extraction.alternates ?? []).filter((t) => t.trim());
  if (text === null && extraction.structured === undefined && alternates.length === 0) {
    return { ok: false, failure: failed ? nonzero(proc, options.bin) : { class: 'empty_output', detail: `${options.bin} returned no answer text` } };
  }
  let first = null as Failure | null;
  const tryParse = (candidate: string): Record<string, unknown> | null => {
    try {
      return options.parse(candidate);
    } catch (error) {
      first ??= parseFailure(error);
      return null;
    }
  };
  if (text !== null) {
    const output = tryParse(text);
    if (output) return { ok: true, output, source: 'text' };
  }
  if (extraction.structured !== undefined && extraction.structured !== null) {
    const checked = validateJson(options.schema, extraction.structured, { defaults: true });
    if (checked.valid && typeof checked.value === 'object' && !Array.isArray(checked.value)) {
      return { ok: true, output: checked.value as Record<string, unknown>, source: 'structured' };
    }
    // The CLI returned an object (claude --json-schema puts unfenced JSON in the text): say
    // what is wrong with it rather than "no JSON block".
    if (!first || first.class === 'no_json') {
      first = { class: 'invalid_output', detail: clip(`the structured answer does not match the output schema: ${formatViolations(checked.violations)}`) };
    }
  }
  for (const alternate of alternates) {
    const output = tryParse(alternate);
    if (output) return { ok: true, output, source: 'alternate' };
  }
  if (failed) return { ok: false, failure: nonzero(proc, options.bin) };
  return { ok: false, failure: first ?? { class: 'no_json', detail: 'no answer found' } };
}

function parseFailure(error: unknown): Failure {
  if (isSupervisorError(error)) {
    const cls = CLASS_BY_CODE[error.code];
    if (cls) return { class: cls, detail: clip(error.message) };
  }
  // Anything else (unknown parser, a parser plugin's bug) is not the model's fault: stop.
  throw isSupervisorError(error) ? error : wrapPluginError('parser', 'parse', error);
}

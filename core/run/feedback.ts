/**
 * What a retry appends to the prompt: after an unusable answer, what was wrong and the exact
 * required format (seed 003's "stricter instructions"; the format is the parser's own, from
 * core/output's answerFormat); after a failed gate, the command and its output, so the model
 * can fix the cause.
 */
import type { Failure } from '../plugin-api/contracts.ts';

/** Longest gate output quoted back to the model (its tail: where test runners put failures). */
const FEEDBACK_OUTPUT_CHARS = 4000;

export function stricterInstructions(failure: Failure, attempt: number, format: string): string {
  return [
    '',
    '---',
    '',
    '## IMPORTANT: your previous answer could not be used',
    '',
    `Attempt ${attempt} was rejected (${failure.class}): ${failure.detail}`,
    '',
    'Do the task again and answer in exactly the required format. This is the last attempt.',
    '',
    format,
    '',
  ].join('\n');
}

export interface GateOutcome {
  command: string;
  exitCode: number | null;
  timedOut: boolean;
  output: string;
  durationMs: number;
}

function tail(text: string, chars: number): string {
  return text.length <= chars ? text : `[... ${text.length - chars} earlier characters cut ...]\n${text.slice(-chars)}`;
}

export function gateFeedback(gate: GateOutcome, attempt: number): string {
  const how = gate.timedOut ? 'timed out' : `exited with code ${gate.exitCode}`;
  return [
    '',
    '---',
    '',
    `## A check failed after attempt ${attempt}`,
    '',
    `Your changes are still in the working directory. The check \`${gate.command}\` ${how}:`,
    '',
    '```text',
    tail(gate.output.trimEnd(), FEEDBACK_OUTPUT_CHARS).replaceAll('```', "'''"),
    '```',
    '',
    'Fix the cause, make sure the check passes, then answer again in the required format.',
    '',
  ].join('\n');
}

/** Failure classes shared by the adapters, and the reading of a process that left no envelope. */
import type { Failure, FailureClass, ProcessResult } from '../../../core/plugin-api/index.ts';
import { lastLine, oneLine } from './json.ts';

export function failure(cls: FailureClass, detail: string, httpStatus?: number): Failure {
  return httpStatus === undefined ? { class: cls, detail: oneLine(detail) } : { class: cls, detail: oneLine(detail), httpStatus };
}

const STATUS_PATTERNS: RegExp[] = [
  /"code"\s*:\s*([45]\d\d)\b/,
  /\bstatus(?: code)?:?\s*([45]\d\d)\b/i,
  /\bAPI Error:?\s*\(?([45]\d\d)\b/i,
  /\(([45]\d\d)\)/,
  /\b([45]\d\d) (?:Unauthorized|Forbidden|Not Found|Too Many Requests|Internal Server Error|Bad Gateway|Service Unavailable|Gateway Timeout|Bad Request)\b/i,
];

/** An HTTP status named in an error message ("unexpected status 401", `"code":500`, "(429)"). */
export function httpStatusIn(message: string): number | undefined {
  for (const pattern of STATUS_PATTERNS) {
    const match = pattern.exec(message);
    if (match?.[1]) return Number(match[1]);
  }
  return undefined;
}

/** "exit code 1" or "signal SIGKILL". */
export function exitText(result: ProcessResult): string {
  if (result.exitCode !== null) return `exit code ${result.exitCode}`;
  return result.signal ? `signal ${result.signal}` : 'no exit code';
}

/**
 * The core's verdict on a process it stopped itself (Ctrl-C, its timeout), from the result's
 * flags; undefined when it did not. No envelope overrides it: every adapter asks this first
 * (processFailure does), and reads exit codes and stderr only for processes that ended alone.
 */
export function stoppedFailure(cli: string, result: ProcessResult): Failure | undefined {
  if (result.interrupted) return failure('interrupted', `${cli} was interrupted before it finished`);
  if (result.timedOut) return failure('timeout', `${cli} did not finish in time and was stopped`);
  return undefined;
}

/**
 * The failure of a run whose output holds no usable envelope: the core's flags first
 * (timeout, interrupt), then the exit status, then what stdout looks like. `what` names the
 * envelope that was expected ("codex's JSON events").
 */
export function processFailure(cli: string, result: ProcessResult, what = 'a JSON envelope'): Failure {
  const stopped = stoppedFailure(cli, result);
  if (stopped) return stopped;
  const said = lastLine(result.stderr) || lastLine(result.stdout);
  const tail = said ? `: ${said}` : '';
  if (result.exitCode !== 0) return failure('nonzero_exit', `${cli} failed (${exitText(result)})${tail}`);
  if (result.stdout.trim() === '') return failure('empty_output', `${cli} exited 0 but printed nothing`);
  const cut = result.truncated.stdout ? ' (output was cut at the capture limit)' : '';
  return failure('invalid_envelope', `${cli} printed output that is not ${what}${cut}: ${oneLine(result.stdout, 120)}`);
}

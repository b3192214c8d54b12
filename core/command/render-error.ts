/** The one place errors become text: a clear line and a hint; stack only with --debug. */
import { errors, fileSystemCause, isSupervisorError, SupervisorError, type ExitCode } from '../errors.ts';
import type { OutputStream } from './deps.ts';
import { sanitizeTerminal } from '../text/sanitize-terminal.ts';

export function toSupervisorError(error: unknown): SupervisorError {
  if (isSupervisorError(error)) return error as SupervisorError;
  // A full disk or a read-only folder is the machine's state, not a bug: say which path and why.
  const system = fileSystemCause(error);
  if (system) return errors.fileSystem(system);
  const message = error instanceof Error ? error.message : String(error);
  return new SupervisorError('INTERNAL', `Unexpected error: ${message}`, {
    cause: error,
    hint: 'This is a bug in supervisor; run again with --debug and report the output.',
  });
}

export function renderError(error: unknown, stream: OutputStream, options: { json: boolean; debug: boolean }): ExitCode {
  const failure = toSupervisorError(error);
  if (options.json) {
    stream.write(`${JSON.stringify({ error: failure.toJSON() })}\n`);
  } else {
    // Messages quote what they are about (file names, answers): no control sequences reach the terminal.
    stream.write(sanitizeTerminal(`error [${failure.code}]: ${failure.message}\n`));
    if (failure.hint) stream.write(sanitizeTerminal(`hint: ${failure.hint}\n`));
  }
  if (options.debug) {
    const original = failure.cause instanceof Error ? failure.cause : failure;
    stream.write(`${original.stack ?? String(original)}\n`);
  }
  return failure.exitCode;
}

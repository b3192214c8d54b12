/**
 * What both entries do around main() (bin/supervisor.mjs from source, core/binary/main.ts in the
 * single binary): plugin output is kept off stdout, and the process never ends with exit 0
 * before main() has settled (a plugin promise that never settles would otherwise let the event
 * loop drain and the process exit 0 having printed nothing).
 */
import { Console } from 'node:console';
import { SupervisorError, EXIT } from '../errors.ts';
import { renderError } from '../command/render-error.ts';

const CONSOLE_METHODS = ['log', 'info', 'debug', 'dir', 'dirxml', 'table', 'trace', 'group', 'groupCollapsed', 'groupEnd', 'count', 'countReset', 'time', 'timeEnd', 'timeLog', 'assert', 'warn', 'error'] as const;

/**
 * stdout carries only results, which the CLI writes to its stdout stream directly; everything
 * printed through `console` (a plugin's console.log, a library's) goes to stderr instead.
 */
export function routeConsoleToStderr(stream: NodeJS.WritableStream = process.stderr): void {
  const toStderr = new Console({ stdout: stream, stderr: stream });
  const target = console as unknown as Record<string, unknown>;
  for (const method of CONSOLE_METHODS) {
    const replacement = (toStderr as unknown as Record<string, unknown>)[method];
    if (typeof replacement === 'function') target[method] = replacement.bind(toStderr);
  }
}

export function unfinishedError(): SupervisorError {
  return new SupervisorError('UNFINISHED', 'supervisor stopped before it finished: something it waited for never answered (a plugin hook or module whose promise never settles?)', {
    hint: 'Run again with --debug; `supervisor plugins list` and `supervisor doctor` name broken plugins.',
    exitCode: EXIT.usage,
  });
}

/** Runs main and sets the exit code from it; if the process ends while main is still pending, says so and exits non-zero. */
export function runEntry(argv: string[], run: () => Promise<number>): void {
  routeConsoleToStderr();
  const options = { json: argv.includes('--json'), debug: argv.includes('--debug') };
  let settled = false;
  // beforeExit fires only when the event loop has drained, never on an explicit process.exit
  // (a signal handler's 130/129/143 stays as it is).
  process.once('beforeExit', () => {
    if (settled) return;
    settled = true;
    process.exitCode = renderError(unfinishedError(), process.stderr, { ...options, debug: false });
  });
  run().then(
    (code) => {
      settled = true;
      process.exitCode = code;
    },
    (error: unknown) => {
      settled = true;
      process.exitCode = renderError(error, process.stderr, { ...options, debug: true });
    },
  );
}

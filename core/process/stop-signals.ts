/**
 * The signals that stop a run: Ctrl-C (SIGINT), a closed terminal (SIGHUP) and a polite kill
 * (SIGTERM). One handler takes all three: the command's handlers are told which signal came
 * (so the run ends with 130, 129 or 143), and every process group this process started is
 * ended, so no child (a packer's git, a commit step's git) keeps working after the stop.
 */
import { EXIT, type ExitCode } from '../errors.ts';
import { endLiveProcessGroups } from './process-groups.ts';

export const STOP_SIGNALS = ['SIGINT', 'SIGHUP', 'SIGTERM'] as const;
export type StopSignal = (typeof STOP_SIGNALS)[number];

const EXIT_BY_SIGNAL: Record<StopSignal, ExitCode> = { SIGINT: EXIT.interrupted, SIGHUP: EXIT.hangup, SIGTERM: EXIT.terminated };

export function isStopSignal(value: unknown): value is StopSignal {
  return typeof value === 'string' && (STOP_SIGNALS as readonly string[]).includes(value);
}

/** The exit code for a run stopped by `reason` (an AbortSignal's reason): 129, 143, else 130. */
export function stopExitCode(reason: unknown): ExitCode {
  return isStopSignal(reason) ? EXIT_BY_SIGNAL[reason] : EXIT.interrupted;
}

/** Words for a notice: "Ctrl-C", "the terminal closed (SIGHUP)", ... */
export function describeStop(reason: unknown): string {
  if (reason === 'SIGHUP') return 'the terminal closed (SIGHUP)';
  if (reason === 'SIGTERM') return 'SIGTERM';
  return 'Ctrl-C';
}

/** Once the terminal is gone, writing to it fails (EIO, EPIPE): that must not end the cleanup. */
function ignoreClosedTerminal(): void {
  for (const stream of [process.stdout, process.stderr]) {
    if (stream.listenerCount('error') === 0) stream.on('error', () => {});
  }
}

/**
 * Calls `handler` with the signal on SIGINT, SIGHUP and SIGTERM until the returned remover
 * is called. While a handler is installed the process does not die of these signals.
 */
export function onStopSignal(handler: (signal: StopSignal) => void): () => void {
  const listeners = STOP_SIGNALS.map((signal) => {
    const listener = () => {
      if (signal === 'SIGHUP') ignoreClosedTerminal();
      handler(signal);
      // After the handler: a child that watches the same signal (the CLI's) is ended by its own
      // runProcess with a grace period; the rest (git, packers) are ended here.
      endLiveProcessGroups({ exceptAbortable: true });
    };
    process.on(signal, listener);
    return [signal, listener] as const;
  });
  return () => {
    for (const [signal, listener] of listeners) process.off(signal, listener);
  };
}

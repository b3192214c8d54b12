/**
 * How a process we run is ended before it exits: its timeout or its abort signal, whichever
 * comes first, sends TERM, then KILL after the grace period (run-process.ts, launcher.ts).
 */

export const DEFAULT_GRACE_MS = 3000;

export interface EndingOptions {
  /** 0 or undefined: no timeout. */
  timeoutMs?: number;
  /** Time between TERM and KILL. */
  graceMs?: number;
  /** Aborting ends the process and marks it interrupted. */
  signal?: AbortSignal;
}

export interface Ending {
  readonly timedOut: boolean;
  readonly interrupted: boolean;
  /** The process exited: its timeout no longer applies. */
  exited(): void;
  /** Nothing more to end: timers cleared, the abort signal left alone. */
  done(): void;
}

/** Watches `options`' timeout and abort signal; `send` signals the process (and what it started). */
export function watchEnding(options: EndingOptions, send: (signal: NodeJS.Signals) => void): Ending {
  let timedOut = false;
  let interrupted = false;
  let killTimer: NodeJS.Timeout | undefined;
  const end = () => {
    send('SIGTERM');
    killTimer ??= setTimeout(() => send('SIGKILL'), options.graceMs ?? DEFAULT_GRACE_MS);
  };
  const timer = options.timeoutMs
    ? setTimeout(() => {
        timedOut = true;
        end();
      }, options.timeoutMs)
    : undefined;
  const onAbort = () => {
    interrupted = true;
    end();
  };
  if (options.signal?.aborted) onAbort();
  else options.signal?.addEventListener('abort', onAbort, { once: true });
  return {
    get timedOut() {
      return timedOut;
    },
    get interrupted() {
      return interrupted;
    },
    exited: () => clearTimeout(timer),
    done: () => {
      clearTimeout(timer);
      clearTimeout(killTimer);
      options.signal?.removeEventListener('abort', onAbort);
    },
  };
}

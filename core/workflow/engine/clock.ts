/**
 * The workflow engine's clock: what time it is and how to wait. Injected (WorkflowRunOptions
 * `clock`, or `now`), so tests can run a quota pause or a merge queue on a clock of their own;
 * the system clock is the default and the only place the engine reads the time.
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Waits `ms`, or less when `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, Math.max(0, ms));
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

export const systemClock: Clock = { now: () => Date.now(), sleep };

/** The current time as a Date, from the system clock (the default of `now` options). */
export const systemNow = (): Date => new Date(systemClock.now());

/** The time as a Date, from the clock a workflow runs on (the store's event timestamps). */
export function dateOf(options: { clock?: Clock; now?: () => Date }): () => Date {
  const clock = clockOf(options);
  return () => new Date(clock.now());
}

/** The clock a workflow runs on: `clock`, else one built on `now` (older option), else the system's. */
export function clockOf(options: { clock?: Clock; now?: () => Date }): Clock {
  if (options.clock) return options.clock;
  const now = options.now;
  return now ? { now: () => now().getTime(), sleep } : systemClock;
}

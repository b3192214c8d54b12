/** A step of a run that a stop (Ctrl-C, SIGHUP, SIGTERM) cuts short: what `runRole` awaits while it prepares. */
import { errors } from '../errors.ts';
import { stopExitCode } from '../process/stop-signals.ts';

/** Resolves as `work` does, or throws INTERRUPTED (with the signal's exit code) as soon as the run is stopped. */
export async function untilStopped<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  const stopped = () => errors.interrupted(stopExitCode(signal.reason));
  if (signal.aborted) {
    work.catch(() => {});
    throw stopped();
  }
  let onAbort: () => void = () => {};
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(stopped());
    signal.addEventListener('abort', onAbort, { once: true });
  });
  work.catch(() => {}); // the race may be lost to the abort: its late failure is not news
  try {
    return await Promise.race([work, aborted]);
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

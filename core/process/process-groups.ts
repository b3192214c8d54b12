/**
 * The process groups this process started that are still running (every child leads a group of
 * its own), so a stop signal can end them all, whichever way they were started (run-process.ts,
 * launcher.ts).
 */

/** Running groups by leader pid, and whether each has an abort signal of its own. */
const live = new Map<number, { abortable: boolean }>();

export function trackGroup(pid: number, abortable: boolean): void {
  live.set(pid, { abortable });
}

export function untrackGroup(pid: number): void {
  live.delete(pid);
}

/**
 * Ends every process group started here that is still running (a stop signal arrived).
 * exceptAbortable: leave those that will be ended through their own abort signal, with its
 * grace period (the CLI, the gates).
 */
export function endLiveProcessGroups(options: { exceptAbortable?: boolean } = {}): void {
  for (const [pid, { abortable }] of live) {
    if (!(options.exceptAbortable && abortable)) killGroup(pid, 'SIGTERM');
  }
}

export function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    if (process.platform === 'win32') process.kill(pid, signal);
    else process.kill(-pid, signal);
  } catch {
    // already gone
  }
}

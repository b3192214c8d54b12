/**
 * Ending processes that are not our children (found by tag or recorded group): TERM, then
 * KILL after a grace period, and waiting until they are gone. Targets are pids, or process
 * groups as -pgid.
 */
import { groupAlive, running, signalPids } from './tagged-processes.ts';

const POLL_MS = 50;
const AFTER_KILL_MS = 2000;

export interface EndedProcesses {
  /** Processes (and groups, as -pgid) that were running and were sent a signal. */
  signalled: number[];
  /** Still running after TERM and KILL (a process in uninterruptible sleep, another user's). */
  remaining: number[];
}

function stillRunning(targets: number[]): number[] {
  return targets.filter((target) => (target < 0 ? groupAlive(-target) : running(target)));
}

async function waitGone(targets: number[], ms: number): Promise<number[]> {
  let left = stillRunning(targets);
  for (let waited = 0; left.length > 0 && waited < ms; waited += POLL_MS) {
    await new Promise((r) => setTimeout(r, POLL_MS));
    left = stillRunning(left);
  }
  return left;
}

/** TERM, then KILL after `graceMs`; waits until they are gone (or gives up and says which remain). */
export async function endProcesses(targets: number[], graceMs: number): Promise<EndedProcesses> {
  if (targets.length === 0) return { signalled: [], remaining: [] };
  signalPids(targets, 'SIGTERM');
  let left = await waitGone(targets, graceMs);
  if (left.length > 0) {
    signalPids(left, 'SIGKILL');
    left = await waitGone(left, AFTER_KILL_MS);
  }
  return { signalled: targets, remaining: left };
}

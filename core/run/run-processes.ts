/**
 * No process outlives its run. A run's processes are found three ways: the process groups its
 * CLI attempts led (recorded in the run log as `cli_started`); on Linux, any process whose
 * environment carries the run's SUPERVISOR_RUN_ID (that also finds what left its group with
 * setsid); and, where supervisor may make cgroups (root, or a delegated subtree), the run's
 * own cgroup, which every process of the run starts in and cannot leave: that finds a daemon
 * that also dropped the variable (`env -i setsid ...`). A recorded group is only ended while
 * it still holds a process of that run: after the run died, its group number may have been
 * given to someone else.
 */
import { findRunCgroup, runCgroup } from '../process/cgroup.ts';
import { endProcesses, type EndedProcesses } from '../process/end-processes.ts';
import { dropStandby, startStandby } from '../process/standby.ts';
import { groupAlive, hasProcessTable, processGroupOf, processesTaggedWith } from '../process/tagged-processes.ts';
import { trackingGroupName } from '../sandbox/executor.ts';

export type { EndedProcesses } from '../process/end-processes.ts';

const RUN_TAG = 'SUPERVISOR_RUN_ID';

/**
 * The recorded groups that still hold a process of the run (`tagged`), as -pgid: found from the
 * tagged processes' own groups, so /proc is read once for all of them. Without /proc, every
 * recorded group still alive (the record is trusted).
 */
function runGroups(groups: number[], tagged: number[]): number[] {
  if (groups.length === 0) return [];
  if (!hasProcessTable()) return groups.filter(groupAlive).map((pgid) => -pgid);
  const held = new Set(tagged.map(processGroupOf));
  return groups.filter((pgid) => held.has(pgid)).map((pgid) => -pgid);
}

/** The run's tracking cgroup: named as the executor names it (gates and set-up start in the same one). */
function cgroupName(runId: string): string {
  return trackingGroupName(runId);
}

/** The prefix that starts a process in the run's cgroup (made on first use); [] where none can be made. */
export function runCgroupPrefix(runId: string): string[] {
  return runCgroup(cgroupName(runId))?.prefix ?? [];
}

/**
 * A process that joins the run's cgroup now, while the run is prepared, and becomes the run's
 * first command in it (the CLI, or a set-up command): that command then starts at once instead
 * of waiting for the kernel to move it (core/process/standby.ts).
 */
export function startRunStandby(runId: string): void {
  const cgroup = runCgroup(cgroupName(runId));
  if (cgroup) startStandby(cgroup);
}

/**
 * Ends the run's processes: TERM, then KILL after `graceMs`, and waits until they are gone
 * (or gives up after a while and says which remain). The run's cgroup is removed, and a standby
 * no command took is ended first.
 */
export async function endRunProcesses(runId: string, groups: number[], graceMs: number): Promise<EndedProcesses> {
  const cgroup = findRunCgroup(cgroupName(runId));
  if (cgroup) await dropStandby(cgroup.prefix);
  const inCgroup = cgroup?.pids() ?? [];
  const tagged = processesTaggedWith(RUN_TAG, runId);
  const targets = [...new Set([...runGroups(groups, tagged), ...tagged, ...inCgroup])];
  const ended = await endProcesses(targets, graceMs);
  // What is still in it was beyond TERM and KILL (or started meanwhile): remove() tries once more.
  await cgroup?.remove();
  return ended;
}

/** "pid 123, process group 456" for a notice. */
export function describeTargets(targets: number[]): string {
  return targets.map((t) => (t < 0 ? `process group ${-t}` : `pid ${t}`)).join(', ');
}

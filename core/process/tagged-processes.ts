/**
 * Processes that left their process group (`setsid`, a daemonising tool) are out of reach of
 * a group kill, but they keep the environment they were started with. Every process of a run
 * carries `SUPERVISOR_RUN_ID=<run-id>`, so on Linux they can be found through /proc and
 * ended. Elsewhere (no /proc) nothing is found; the process-group kill still applies.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';

function environOf(pid: number): string | null {
  try {
    return readFileSync(`/proc/${pid}/environ`, 'latin1');
  } catch {
    return null; // gone, or another user's
  }
}

/** "pid (comm) state ppid pgrp ...": the fields after comm (which may hold spaces and parentheses). */
function statFields(pid: number): string[] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/** The process group of `pid` (/proc on Linux; null elsewhere or when it is gone). */
export function processGroupOf(pid: number): number | null {
  const pgrp = Number(statFields(pid)?.[2]);
  return Number.isInteger(pgrp) ? pgrp : null;
}

/**
 * When the process started (clock ticks since boot, /proc/<pid>/stat field 22), or null
 * without /proc. With the pid it names one process: a pid the kernel gave out again later
 * has another start time.
 */
export function startTimeOf(pid: number): string | null {
  const ticks = statFields(pid)?.[19];
  return ticks !== undefined && /^\d+$/.test(ticks) ? ticks : null;
}

/**
 * The process exists and is not a zombie (dead, waiting for its parent to collect it: an
 * orphan's new parent may take a moment). Without /proc: whether signal 0 reaches it.
 */
export function running(pid: number): boolean {
  const state = statFields(pid)?.[0];
  if (state !== undefined) return state !== 'Z' && state !== 'X';
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM' && !existsSync('/proc/self/stat');
  }
}

function allPids(): number[] {
  try {
    return readdirSync('/proc').filter((name) => /^\d+$/.test(name)).map(Number);
  } catch {
    return [];
  }
}

/** Pids (never this process) whose environment holds `name=value` exactly. */
export function processesTaggedWith(name: string, value: string): number[] {
  const needle = `${name}=${value}`;
  return allPids().filter((pid) => pid !== process.pid && (environOf(pid)?.split('\0').includes(needle) ?? false) && running(pid));
}

/** Running pids (never this process, no zombies) in process group `pgid`; null when /proc cannot say. */
export function membersOfGroup(pgid: number): number[] | null {
  const pids = allPids();
  if (pids.length === 0) return null;
  return pids.filter((pid) => pid !== process.pid && processGroupOf(pid) === pgid && running(pid));
}

/** Whether any running process is in group `pgid`. */
export function groupAlive(pgid: number): boolean {
  const members = membersOfGroup(pgid);
  if (members !== null) return members.length > 0;
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function signalPids(pids: number[], signal: NodeJS.Signals): void {
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {
      // already gone
    }
  }
}

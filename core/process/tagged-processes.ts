/**
 * Processes that left their process group (`setsid`, a daemonising tool) are out of reach of
 * a group kill, but they keep the environment they were started with. Every process of a run
 * carries `SUPERVISOR_RUN_ID=<run-id>`, so on Linux they can be found through /proc and
 * ended. Elsewhere (no /proc) nothing is found; the process-group kill still applies.
 */
import { readdirSync, readFileSync } from 'node:fs';

function environOf(pid: number): string | null {
  try {
    return readFileSync(`/proc/${pid}/environ`, 'latin1');
  } catch {
    return null; // gone, or another user's
  }
}

function groupOf(pid: number): number | null {
  try {
    // "pid (comm) state ppid pgrp ...": comm may hold spaces and parentheses, so read after the last ")".
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const pgrp = Number(fields[2]);
    return Number.isInteger(pgrp) ? pgrp : null;
  } catch {
    return null;
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
  return allPids().filter((pid) => pid !== process.pid && (environOf(pid)?.split('\0').includes(needle) ?? false));
}

/** Pids (never this process) in process group `pgid`; null when /proc cannot say. */
export function membersOfGroup(pgid: number): number[] | null {
  const pids = allPids();
  if (pids.length === 0) return null;
  return pids.filter((pid) => pid !== process.pid && groupOf(pid) === pgid);
}

/** Whether any process is in group `pgid` (signal 0 to the group). */
export function groupAlive(pgid: number): boolean {
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

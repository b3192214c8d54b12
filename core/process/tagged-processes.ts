/**
 * Processes that left their process group (`setsid`, a daemonising tool) are out of reach of
 * a group kill, but they keep the environment they were started with. Every process of a run
 * carries `SUPERVISOR_RUN_ID=<run-id>`, so on Linux they can be found through /proc and
 * ended. Elsewhere (no /proc) nothing is found; the process-group kill still applies.
 */
import { existsSync, readdirSync } from 'node:fs';
import { readCapped } from '../fs/read-capped.ts';

/** A /proc file's whole text, or null when it cannot be read (the process is gone, or not ours). */
export function readProcFile(path: string): string | null {
  return readCapped(path, 'latin1')?.text ?? null;
}

function environOf(pid: number): string | null {
  return readProcFile(`/proc/${pid}/environ`);
}

/** "pid (comm) state ppid pgrp ...": the fields after comm (which may hold spaces and parentheses). */
function statFields(pid: number): string[] | null {
  const stat = readProcFile(`/proc/${pid}/stat`);
  return stat === null ? null : stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** The process group of `pid` (/proc on Linux; null elsewhere or when it is gone). */
export function processGroupOf(pid: number): number | null {
  const pgrp = Number(statFields(pid)?.[2]);
  return Number.isInteger(pgrp) ? pgrp : null;
}

/** The parent of `pid` (/proc on Linux; null elsewhere or when it is gone). */
export function parentOf(pid: number): number | null {
  const ppid = Number(statFields(pid)?.[1]);
  return Number.isInteger(ppid) ? ppid : null;
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
    return (error as NodeJS.ErrnoException).code === 'EPERM' && !hasProcessTable();
  }
}

/** Whether /proc can say which processes run (Linux). */
export function hasProcessTable(): boolean {
  return existsSync('/proc/self/stat');
}

function allPids(): number[] {
  try {
    return readdirSync('/proc').filter((name) => /^\d+$/.test(name)).map(Number);
  } catch {
    return [];
  }
}

/** Whether a NUL-separated environment holds `entry` as one whole entry. */
function hasEntry(environ: string | null, entry: string): boolean {
  if (environ === null) return false;
  for (let at = environ.indexOf(entry); at !== -1; at = environ.indexOf(entry, at + 1)) {
    const end = at + entry.length;
    if ((at === 0 || environ.charCodeAt(at - 1) === 0) && (end === environ.length || environ.charCodeAt(end) === 0)) return true;
  }
  return false;
}

/** Pids (never this process) whose environment holds `name=value` exactly. */
export function processesTaggedWith(name: string, value: string): number[] {
  const needle = `${name}=${value}`;
  return allPids().filter((pid) => pid !== process.pid && hasEntry(environOf(pid), needle) && running(pid));
}

/** Running pids (never this process, no zombies) in process group `pgid`; null when /proc cannot say. */
function membersOfGroup(pgid: number): number[] | null {
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

/** `pid` and every process below it (by parent pid, /proc); only `pid` where /proc cannot say. */
export function processTree(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const each of allPids()) {
    const parent = parentOf(each);
    if (parent !== null) children.set(parent, [...(children.get(parent) ?? []), each]);
  }
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) tree.push(...(children.get(tree[i]!) ?? []));
  return tree;
}

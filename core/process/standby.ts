/**
 * A process started ahead in its cgroups, that becomes a command when told. Moving a process
 * into a cgroup (a write to cgroup.procs) waits for an RCU grace period in the kernel, 8–18 ms
 * here, and the run's CLI used to pay it on its way to start (cgroup.ts's prefix). A standby
 * pays it while the run is still being prepared: a small `sh`, detached (a process group of its
 * own, as a spawned command has), joins the groups with the prefix's own step, then waits for
 * one line on its fd 3. runProcess tells it the command there: it closes fd 3, enters the
 * folder and execs the command with exactly the environment given (`env -i`), every word
 * quoted (shellWord), so it keeps its pid, its pipes and its group, and what it forks is born
 * in the groups. Whatever cannot be said exactly, a missing folder or program, a standby that
 * ended, or no standby: runProcess spawns through the prefix as before.
 *
 * The one that ends a group's processes drops its standby first (dropStandby); an unused one
 * ends with this process too (its fd 3 closes: it execs nothing).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { statSync } from 'node:fs';
import type { Writable } from 'node:stream';
import { shellWord } from '../text/shell-word.ts';
import { joiningCommand, type Cgroup } from './cgroup.ts';
import { killGroup } from './process-groups.ts';
import { standbyLine, type LaunchOptions } from './launch-line.ts';
import { running } from './tagged-processes.ts';
import { systemProgram } from './which.ts';

/** Standbys waiting, by the prefix that joins the same groups (cgroup.ts `Cgroup.prefix`). */
const waiting = new Map<string, ChildProcess>();

const keyOf = (prefix: readonly string[]) => prefix.join('\0');

/** The programs a standby runs before the command (its environment has no PATH). */
function tools(): { cat: string; env: string } | null {
  const cat = systemProgram('cat');
  const env = systemProgram('env');
  return cat && env ? { cat, env } : null;
}

type Pipes = [Writable, NodeJS.ReadableStream, NodeJS.ReadableStream, Writable];
const pipesOf = (child: ChildProcess) => child.stdio as unknown as Pipes;
/** A waiting standby keeps neither this process nor its event loop alive; a taken one does, as any child. */
function hold(child: ChildProcess, on: boolean): void {
  for (const stream of pipesOf(child)) (stream as unknown as { ref?(): void; unref?(): void })[on ? 'ref' : 'unref']?.();
  if (on) child.ref();
  else child.unref();
}

/** Starts a standby that joins `group` ahead of its prefix; a no-op where one waits already or none can start. */
export function startStandby(group: Pick<Cgroup, 'prefix' | 'dirs'>): void {
  const key = keyOf(group.prefix);
  const tool = process.platform === 'linux' && group.dirs.length > 0 && !waiting.has(key) ? tools() : null;
  if (!tool) return;
  let child: ChildProcess;
  try {
    const [bin, ...args] = joiningCommand(group.dirs, `eval "$(${shellWord(tool.cat)} <&3)"`);
    child = spawn(bin!, args, { cwd: '/', env: {}, stdio: ['pipe', 'pipe', 'pipe', 'pipe'], detached: true });
  } catch {
    return;
  }
  const gone = () => {
    if (waiting.get(key) === child) waiting.delete(key);
  };
  child.on('error', gone);
  child.on('exit', gone);
  for (const stream of pipesOf(child)) (stream as unknown as { on(e: string, f: () => void): void }).on('error', () => {});
  hold(child, false);
  waiting.set(key, child);
}

/**
 * The waiting standby for `prefix`, told to become the command (its pid is the command's), or
 * null when there is none or the command cannot be said to it exactly.
 */
export function takeStandby(prefix: readonly string[], options: Pick<LaunchOptions, 'bin' | 'args' | 'cwd' | 'env' | 'stdin'>): ChildProcess | null {
  const key = keyOf(prefix);
  const child = waiting.get(key);
  const tool = child ? tools() : null;
  if (!child || !tool || !waitingStill(child)) return null;
  // SECURITY I2: the shell runs only the words given, each read back as it was (shellWord).
  const line = standbyLine(options, tool.env);
  if (line === null || !isFolder(options.cwd)) return null;
  waiting.delete(key);
  hold(child, true);
  pipesOf(child)[3].end(line);
  return child;
}

/**
 * Ends the standby waiting for `prefix`, if any, before its groups' processes are ended: told
 * nothing, it exits with what it started (its `cat`), or its process group is killed after
 * `graceMs`. None of them is a process of the run's to report.
 */
export async function dropStandby(prefix: readonly string[], graceMs = 1000): Promise<void> {
  const key = keyOf(prefix);
  const child = waiting.get(key);
  waiting.delete(key);
  if (!child || child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  hold(child, true); // its exit is awaited here
  pipesOf(child)[3].end();
  const timers: NodeJS.Timeout[] = [];
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    timers.push(setTimeout(() => killGroup(child.pid, 'SIGKILL'), graceMs));
    timers.push(setTimeout(resolve, 2 * graceMs)); // never a run held up by its standby
  });
  for (const timer of timers) clearTimeout(timer);
  hold(child, false);
}

function isFolder(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false })?.isDirectory() === true;
  } catch {
    return false;
  }
}

/** Started and not exited, nor a zombie this process has not collected yet. */
function waitingStill(child: ChildProcess): boolean {
  return child.pid !== undefined && child.exitCode === null && child.signalCode === null && running(child.pid);
}

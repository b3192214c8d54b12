/**
 * cgroups, where this user may create them (root with a writable cgroup file system, v1 or v2,
 * or a cgroup v2 subtree delegated to this user): the one mechanism for two uses.
 * - Limits (`limitCgroup`, the bwrap sandbox's): a fresh group per sandboxed process with
 *   pids, memory and CPU limits. Unlike RLIMIT_NPROC, a cgroup's pids.max also binds root.
 * - Tracking (`runCgroup`, the engine's): a group per run, named after it, that every process
 *   of the run starts in. A daemon that dropped SUPERVISOR_RUN_ID (`env -i`, `setsid`) is still
 *   in it, so the end of the run (or a later run's recovery) finds and ends it.
 * A process joins through a tiny `sh` step before anything else starts (`prefix`; or it is a
 * standby that took the same step ahead, standby.ts), so nothing it forks escapes the group.
 * Best effort: where groups cannot be made, these return undefined.
 */
import { accessSync, constants, existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = '/sys/fs/cgroup';

export interface Cgroup {
  /** The group's folders (several for cgroup v1 limits: one per controller). */
  dirs: string[];
  /** The command prefix that moves the process into the group(s), then execs the rest. */
  prefix: string[];
  /** Pids in the group(s) and their sub-groups now. */
  pids(): number[];
  /** Kills what is left in the group(s) and removes them. */
  remove(): Promise<void>;
}

export interface CgroupLimits {
  pids: number;
  memoryMb: number;
  cpus: number;
}

/** The group folders with the files to write in each, for v2 (unified) or v1. */
function limitPlan(name: string, limits: CgroupLimits): { dir: string; files: [string, string][] }[] {
  const memory = String(limits.memoryMb * 1024 * 1024);
  const period = 100_000;
  const quota = String(Math.max(1000, Math.round(limits.cpus * period)));
  if (existsSync(join(ROOT, 'cgroup.controllers'))) {
    return [{ dir: join(ROOT, name), files: [['pids.max', String(limits.pids)], ['memory.max', memory], ['memory.swap.max', '0'], ['cpu.max', `${quota} ${period}`]] }];
  }
  const v1: { dir: string; files: [string, string][] }[] = [
    { dir: join(ROOT, 'pids', name), files: [['pids.max', String(limits.pids)]] },
    { dir: join(ROOT, 'memory', name), files: [['memory.limit_in_bytes', memory]] },
    { dir: join(ROOT, 'cpu', name), files: [['cpu.cfs_period_us', String(period)], ['cpu.cfs_quota_us', quota]] },
  ];
  return v1.filter((g) => existsSync(join(g.dir, '..')));
}

/** Enables the v2 controllers for children of the root group (a no-op when they are). */
function enableV2Controllers(): void {
  const wanted = ['pids', 'memory', 'cpu'];
  const available = readFileSync(join(ROOT, 'cgroup.controllers'), 'utf8').split(/\s+/);
  const enabled = readFileSync(join(ROOT, 'cgroup.subtree_control'), 'utf8').split(/\s+/);
  const missing = wanted.filter((c) => available.includes(c) && !enabled.includes(c));
  if (missing.length) writeFileSync(join(ROOT, 'cgroup.subtree_control'), missing.map((c) => `+${c}`).join(' '));
}

/** A group per process with pids, memory and CPU limits (root only: limits need the controllers). */
export function limitCgroup(name: string, limits: CgroupLimits): Cgroup | undefined {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return undefined;
  const groups = limitPlan(name, limits);
  if (!groups.length) return undefined;
  const made: string[] = [];
  try {
    if (groups[0]!.dir === join(ROOT, name)) enableV2Controllers();
    for (const group of groups) {
      mkdirSync(group.dir);
      made.push(group.dir);
      for (const [file, value] of group.files) {
        // A controller file this kernel lacks (swap accounting off) is no reason to give up.
        if (existsSync(join(group.dir, file))) writeFileSync(join(group.dir, file), value);
      }
    }
  } catch {
    for (const dir of made.reverse()) removeDir(dir);
    return undefined;
  }
  return cgroupOf(made);
}

/** The folders a tracking group may live in, most useful first: v2 (with cgroup.kill), then v1's pids. */
function trackingParents(): string[] {
  const parents: string[] = [];
  for (const v2 of [ROOT, join(ROOT, 'unified')]) {
    if (!existsSync(join(v2, 'cgroup.procs')) || !isV2(v2)) continue;
    parents.push(v2);
    // A delegated subtree: this process's own group, when this user may write it (systemd's user@ service).
    const own = ownV2Group();
    if (own && own !== '/') parents.push(join(v2, own));
  }
  if (existsSync(join(ROOT, 'pids', 'cgroup.procs'))) parents.push(join(ROOT, 'pids'));
  return parents;
}

function isV2(dir: string): boolean {
  return existsSync(join(dir, 'cgroup.controllers'));
}

function ownV2Group(): string | undefined {
  try {
    return /^0::(.*)$/m.exec(readFileSync('/proc/self/cgroup', 'utf8'))?.[1];
  } catch {
    return undefined;
  }
}

function writable(file: string): boolean {
  try {
    accessSync(file, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/** Tracking groups left empty longer than this are removed when a new one is made. */
const STALE_EMPTY_MS = 10 * 60_000;

/**
 * Empty tracking groups of runs that ended without removing theirs (a supervisor killed with
 * -9): rmdir only succeeds on an empty group, and a live run whose group was empty between two
 * processes gets a new one on its next start.
 */
function sweepEmpty(parent: string): void {
  const now = Date.now();
  for (const dir of subgroups(parent)) {
    if (!/^supervisor-(run|probe)-/.test(dir.slice(parent.length + 1))) continue;
    const changed = statSync(dir, { throwIfNoEntry: false })?.mtimeMs ?? now;
    if (now - changed > STALE_EMPTY_MS && pidsUnder(dir).length === 0) removeDir(dir);
  }
}

/** The run's tracking group, made now (or found, when it exists already); undefined where none can be made. */
export function runCgroup(name: string): Cgroup | undefined {
  if (process.platform !== 'linux') return undefined;
  const found = findRunCgroup(name);
  if (found) return found;
  for (const parent of trackingParents()) {
    // Moving a process in needs write access to the group it leaves too (delegation rules).
    if (!writable(join(parent, 'cgroup.procs'))) continue;
    const dir = join(parent, name);
    try {
      mkdirSync(dir);
    } catch {
      continue;
    }
    if (writable(join(dir, 'cgroup.procs'))) {
      sweepEmpty(parent);
      return cgroupOf([dir]);
    }
    removeDir(dir);
  }
  return undefined;
}

/** A run's tracking group made earlier (by this process, or by a supervisor that was killed). */
export function findRunCgroup(name: string): Cgroup | undefined {
  if (process.platform !== 'linux') return undefined;
  const dir = trackingParents().map((parent) => join(parent, name)).find((d) => existsSync(join(d, 'cgroup.procs')));
  return dir ? cgroupOf([dir]) : undefined;
}

/** Which mechanism finds a run's processes here: a cgroup (and where), or only the environment tag. */
export function trackingMechanism(): { mechanism: 'cgroup'; where: string } | { mechanism: 'environment'; where: null } {
  if (process.platform === 'linux') {
    const probe = `supervisor-probe-${process.pid}`;
    const group = runCgroup(probe);
    if (group) {
      const where = group.dirs[0]!.slice(0, -probe.length - 1);
      removeDir(group.dirs[0]!);
      return { mechanism: 'cgroup', where };
    }
  }
  return { mechanism: 'environment', where: null };
}

/**
 * The shell step that moves itself into the groups named by its arguments (their count, then
 * the folders; `"$@"` is what follows them). The folders are arguments, never part of the
 * script: a delegated group's path may hold anything.
 */
const JOIN_GROUPS = 'n=$1; shift; while [ "$n" -gt 0 ]; do echo $$ > "$1/cgroup.procs"; shift; n=$((n-1)); done 2>/dev/null;';

/** `/bin/sh -c <JOIN_GROUPS, then then> sh <count> <folders>`: the command that joins `dirs`, then runs `then`. */
export function joiningCommand(dirs: readonly string[], then: string): string[] {
  return ['/bin/sh', '-c', `${JOIN_GROUPS} ${then}`, 'sh', String(dirs.length), ...dirs];
}

function cgroupOf(dirs: string[]): Cgroup {
  return {
    dirs,
    prefix: joiningCommand(dirs, 'exec "$@"'),
    pids: () => [...new Set(dirs.flatMap((dir) => pidsUnder(dir)))],
    async remove() {
      for (const dir of dirs) await emptyAndRemove(dir);
    },
  };
}

function subgroups(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => join(dir, e.name));
  } catch {
    return [];
  }
}

function pidsIn(dir: string): number[] {
  try {
    return readFileSync(join(dir, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** Pids of the group and every group below it (never this process). */
function pidsUnder(dir: string): number[] {
  return [...pidsIn(dir), ...subgroups(dir).flatMap((sub) => pidsUnder(sub))].filter((pid) => pid !== process.pid);
}

function removeDir(dir: string): boolean {
  for (const sub of subgroups(dir)) removeDir(sub);
  try {
    rmdirSync(dir);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT';
  }
}

/**
 * Whatever is left in the group is killed; the group is removed once empty. Processes killed
 * a moment ago take a few milliseconds to leave it: short waits, up to a second.
 */
async function emptyAndRemove(dir: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    for (const pid of pidsUnder(dir)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone already
      }
    }
    if (removeDir(dir)) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

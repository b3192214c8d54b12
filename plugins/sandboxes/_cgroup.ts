/**
 * Process, memory and CPU limits through cgroups, where this user may create them (root with a
 * writable cgroup file system, v1 or v2): a fresh group per process, joined by a tiny `sh`
 * step before anything else starts, and removed at tear-down, after killing whatever is still
 * in it. Unlike RLIMIT_NPROC, a cgroup's pids.max also binds root. Best effort: where groups
 * cannot be made, `cgroupFor` returns undefined and prlimit's limits stay the only ones.
 */
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = '/sys/fs/cgroup';

export interface Cgroup {
  /** The command prefix that moves the process into the group(s), then execs the rest. */
  prefix: string[];
  /** Kills what is left in the group(s) and removes them. */
  remove(): Promise<void>;
}

interface Limits {
  pids: number;
  memoryMb: number;
  cpus: number;
}

/** The group folders with the files to write in each, for v2 (unified) or v1. */
function plan(name: string, limits: Limits): { dir: string; files: [string, string][] }[] {
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

export function cgroupFor(name: string, limits: Limits): Cgroup | undefined {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return undefined;
  const groups = plan(name, limits);
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
  // Joining is best effort too: a group that refuses the process must not keep the CLI from running.
  const joins = made.map((dir) => `echo $$ > '${join(dir, 'cgroup.procs')}'`).join('; ');
  return {
    prefix: ['/bin/sh', '-c', `{ ${joins}; } 2>/dev/null; exec "$@"`, 'sh'],
    async remove() {
      for (const dir of made) await emptyAndRemove(dir);
    },
  };
}

function pidsIn(dir: string): number[] {
  try {
    return readFileSync(join(dir, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

function removeDir(dir: string): boolean {
  try {
    rmdirSync(dir);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT';
  }
}

/**
 * Whatever is left in the group is killed; the group is removed once empty. Processes killed
 * as the sandbox ended take a few milliseconds to leave it: short waits, up to a second.
 */
async function emptyAndRemove(dir: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    for (const pid of pidsIn(dir)) {
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

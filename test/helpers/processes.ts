/**
 * Whether a process is still running, one way for every test: a zombie (exited, not yet
 * reaped by its parent; containers' PID 1 may never reap) or a dead entry counts as gone, since it runs nothing and holds nothing.
 */
import { readFileSync } from 'node:fs';

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    // The state is the field after the parenthesised command name, which may hold spaces.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/[ZX]/.test(stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3));
  } catch {
    return process.platform !== 'linux';
  }
}

/** Waits up to `ms` for the process to be gone; true when it is. */
export async function gone(pid: number, ms = 5000): Promise<boolean> {
  const until = Date.now() + ms;
  while (alive(pid)) {
    if (Date.now() > until) return false;
    await new Promise((r) => setTimeout(r, 25));
  }
  return true;
}

/** Waits up to `ms` for `check` to hold; throws, naming `what` it waited for, when it never does. */
export async function until(check: () => boolean | Promise<boolean>, ms = 5000, what = 'a condition'): Promise<void> {
  for (const end = Date.now() + ms; !(await check()); ) {
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

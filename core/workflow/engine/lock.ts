/**
 * One owner per workflow: `workflow run` and `workflow resume` hold `<workflow folder>/lock`
 * while they work. The lock names its owner by pid and the process's start time (from /proc),
 * so a lock left by a killed process, or by a pid the kernel has since given to another
 * process, is seen as stale and taken over. The lock file appears whole (written beside it,
 * then hard-linked into place), so a reader never judges a half-written lock.
 */
import { systemNow } from './clock.ts';
import { linkSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as v from 'valibot';
import { running, startTimeOf } from '../../process/tagged-processes.ts';
import { engineErrors } from './errors.ts';

export const LOCK_FILE = 'lock';

const ownerShape = v.object({ pid: v.pipe(v.number(), v.integer(), v.minValue(1)), start_time: v.nullable(v.string()), acquired_at: v.string() });
export type LockOwner = v.InferOutput<typeof ownerShape>;

export interface WorkflowLock {
  readonly owner: LockOwner;
  /** Removes the lock when it is still this one (idempotent). */
  release(): void;
}

function readText(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

function parseOwner(text: string): LockOwner | null {
  try {
    const parsed = v.safeParse(ownerShape, JSON.parse(text));
    return parsed.success ? parsed.output : null;
  } catch {
    return null;
  }
}

/** Whether the process the lock names is still the one that took it. */
function holds(owner: LockOwner): boolean {
  if (!running(owner.pid)) return false;
  const now = startTimeOf(owner.pid);
  return owner.start_time === null || now === null || now === owner.start_time;
}

/** The live owner of the workflow in `dir`, or null (no lock, or a stale one). */
export function lockOwner(dir: string): LockOwner | null {
  const text = readText(join(dir, LOCK_FILE));
  const owner = text === null ? null : parseOwner(text);
  return owner && holds(owner) ? owner : null;
}

let counter = 0;

/** Places `content` at `file` unless a file is there (link fails with EEXIST); true when placed. */
function placeExclusive(file: string, content: string): boolean {
  const temporary = `${file}.${process.pid}.${++counter}.tmp`;
  writeFileSync(temporary, content, { flag: 'wx' });
  try {
    linkSync(temporary, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    rmSync(temporary, { force: true });
  }
}

/**
 * Moves a stale lock aside, making sure what moved is the lock judged stale: another process
 * may have taken it over in between, and its fresh lock is put back.
 */
function removeStale(file: string, judged: string): void {
  const aside = `${file}.stale.${process.pid}.${++counter}`;
  try {
    renameSync(file, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  if (readText(aside) !== judged) {
    try {
      linkSync(aside, file);
    } catch {
      // A third process placed its own lock meanwhile: it owns the workflow now.
    }
  }
  rmSync(aside, { force: true });
}

/** Takes the workflow's lock, or throws WORKFLOW_BUSY naming the process that holds it. */
export function acquireWorkflowLock(dir: string, workflowId: string, now: () => Date = systemNow): WorkflowLock {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, LOCK_FILE);
  const owner: LockOwner = { pid: process.pid, start_time: startTimeOf(process.pid), acquired_at: now().toISOString() };
  const content = `${JSON.stringify(owner)}\n`;
  for (let attempt = 0; attempt < 5; attempt++) {
    if (placeExclusive(file, content)) {
      let held = true;
      return {
        owner,
        release: () => {
          if (held && readText(file) === content) rmSync(file, { force: true });
          held = false;
        },
      };
    }
    const text = readText(file);
    if (text === null) continue;
    const current = parseOwner(text);
    if (current && holds(current)) throw engineErrors.busy(workflowId, current.pid);
    removeStale(file, text);
  }
  const current = lockOwner(dir);
  throw engineErrors.busy(workflowId, current?.pid ?? 0);
}

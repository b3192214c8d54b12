/**
 * The workflow's worktree slots, as git must see them: each slot's admin folder and work tree
 * are recorded when the slot is made (`locateWorktree` right after `git worktree add`, before
 * any CLI ran there), and every later git command for the slot is bound to that record
 * (bound-git.ts), never to what the folder's `.git` says by then. Before git runs in a slot
 * after a CLI did, the slot is checked (`checkSlot`): its `.git` file, admin folder and
 * commondir still point at each other and at this repository, HEAD is on the slot's branch
 * as a commit would follow it through symbolic refs (a free slot stays on the branch of the
 * task that was integrated there, else it is detached). A slot that fails is set aside:
 * moved out of the slots folder unchanged (no git runs on it), named, never used again.
 */
import { systemClock } from './clock.ts';
import { existsSync } from 'node:fs';
import { mkdir, rename } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { errors } from '../../errors.ts';
import { linkProblem, type BoundGit, type BoundWorktree } from '../../git/bound-git.ts';
import { checkWorktree, currentCheck, gitOf } from '../../git/verified-worktree.ts';
import { git, type GitEnv, type GitResult } from '../../git/git.ts';
import type { Slot, SlotPool } from './slot-pool.ts';

export type { Slot } from './slot-pool.ts';

export function recordSlot(pool: SlotPool, path: string, git: BoundWorktree, branch: string | null): void {
  pool.recorded.set(path, { git, branch });
}

export function slotOf(pool: SlotPool, path: string): Slot | undefined {
  return pool.recorded.get(path);
}

export function forgetSlot(pool: SlotPool, path: string): void {
  pool.recorded.delete(path);
}

export function isSetAside(pool: SlotPool, path: string): boolean {
  return pool.setAside.has(path);
}

/**
 * Why the slot at `path` is no longer the slot that was made (null: it is), with git bound to
 * it for what follows. A slot never recorded counts as broken: git is never run on it.
 */
export async function checkSlot(pool: SlotPool, path: string, env: GitEnv, along?: string[]): Promise<{ problem: string; head: string } | { problem: null; head: string; bound: BoundGit; slot: Slot; along?: GitResult }> {
  const slot = slotOf(pool, path);
  if (!slot) return { problem: `${path} is not a worktree slot this workflow made`, head: '' };
  const check = await checkWorktree(slot.git, slot.branch === null ? {} : { branch: slot.branch }, env, along);
  if (check.problem) return { problem: check.problem, head: check.head };
  // A free slot is detached: one put on a branch (the user's, say) would have git move it.
  if (slot.branch === null && check.branchRef) return { problem: `the slot should be detached but is on ${check.branchRef}`, head: check.head };
  return { problem: null, head: check.head, bound: gitOf(check.verified!, env), slot, ...(check.along ? { along: check.along } : {}) };
}

function slotBrokenError(path: string, problem: string): Error {
  const broken = errors.workspaceBroken(path, problem);
  broken.details.problem = problem;
  return broken;
}

/**
 * Git bound to a checked slot; WORKSPACE_BROKEN (nothing more run) when the check fails.
 * `along`: a command run beside the check (checkWorktree), its answer returned when it passes.
 */
export async function verifiedSlot(pool: SlotPool, path: string, env: GitEnv, along?: string[]): Promise<{ bound: BoundGit; head: string; slot: Slot; along?: GitResult }> {
  const checked = await checkSlot(pool, path, env, along);
  if (checked.problem !== null) throw slotBrokenError(path, checked.problem);
  return checked;
}

/**
 * Git bound to a slot that was checked in full after its last command (a freed slot; a slot
 * whose run just checked and committed it): that check, if no command ran there since and its
 * links still hold, else a full check now. WORKSPACE_BROKEN when the slot fails it.
 */
export async function checkedSlotGit(pool: SlotPool, path: string, env: GitEnv): Promise<{ bound: BoundGit; slot: Slot }> {
  const slot = slotOf(pool, path);
  const current = slot && !linkProblem(slot.git) ? currentCheck(path) : null;
  if (slot && current) return { bound: gitOf(current, env), slot };
  const { bound, slot: checked } = await verifiedSlot(pool, path, env);
  return { bound, slot: checked };
}

/**
 * Moves the slot's folder aside into `keptDir` and marks it never to be used or removed
 * again; returns where it is now. A broken slot is renamed as it is (no git runs on it); a
 * healthy one holding work (`repoRoot` given) is moved by the repository's own
 * `git worktree move`, so it stays a worktree where it lands. Left in place when it cannot move.
 */
export async function setAside(pool: SlotPool, path: string, keptDir: string, repoRoot: string | null, env: GitEnv): Promise<string> {
  const set = pool.setAside;
  set.add(path);
  forgetSlot(pool, path);
  if (!existsSync(path)) return path;
  const target = join(keptDir, `${basename(path)}-${systemClock.now().toString(36)}`);
  try {
    await mkdir(keptDir, { recursive: true });
    if (repoRoot === null) await rename(path, target);
    else if (!(await git(repoRoot, ['worktree', 'move', path, target], env)).ok) return path;
    set.add(target);
    return target;
  } catch {
    return path;
  }
}

/**
 * What the engine does when a slot is not what it made, or holds what a commit cannot: the
 * slot is set aside (kept, named, never reused; slots.ts) and the task ends with the reason —
 * `error` (workspace_broken) for a broken slot, `gaps` for work left outside the commit
 * (submodules, nested repositories, files outside a sparse cone): never `integrated` with
 * work dropped when the slot is cleaned. A fresh slot serves the next task.
 */
import { join } from 'node:path';
import { EXIT, isSupervisorError, type SupervisorError } from '../../errors.ts';
import { readContents } from '../../git/worktree-contents.ts';
import { nameList } from '../../text/name-list.ts';
import { notice, setState, type Engine, type TaskRecord } from './context.ts';
import { releaseWorktree } from './git-ops.ts';
import { checkedSlotGit, isSetAside, setAside, verifiedSlot } from './slots.ts';
import type { BoundGit } from '../../git/bound-git.ts';
import { excludePathspecs } from '../../run/setup.ts';
import { slotExclude } from './slot-setup.ts';

function keptDir(engine: Engine): string {
  return join(engine.paths.worktrees, 'kept');
}

export function isWorkspaceBroken(error: unknown): error is SupervisorError {
  return isSupervisorError(error) && error.code === 'WORKSPACE_BROKEN';
}

/** What is wrong with the slot, from a WORKSPACE_BROKEN of slots.ts (its message otherwise). */
export function brokenProblem(error: SupervisorError): string {
  return typeof error.details.problem === 'string' ? error.details.problem : error.message;
}

/**
 * The slot failed its check: moved aside as it is (no git runs on it), named, and the task
 * ends `error` with `workspace_broken` (unless it had already ended: then it is named only).
 */
export async function slotBroken(engine: Engine, record: TaskRecord, worktree: string, problem: string): Promise<void> {
  const where = await setAside(engine.ops.slots, worktree, keptDir(engine), null, engine.ops.env);
  const issue = `workspace_broken: the task's worktree slot is no longer the worktree supervisor made (${problem}); nothing more was run in it, it is kept at ${where}, and your checkout was not touched`;
  notice(engine, `${record.task.id}: ${issue}; a fresh slot serves the next task`);
  engine.store.append('slot_set_aside', { task: record.task.id, path: where, reason: 'workspace_broken', problem });
  if (record.state === 'integrated') return;
  record.issues = [issue, ...record.issues.filter((i) => !i.startsWith('workspace_broken:'))];
  record.failedExitCode = EXIT.cliFailed;
  setState(engine, record, 'error', { reason: 'workspace_broken' });
}

/**
 * After the task: the slot is freed for the next task, or set aside when it fails its check.
 * An integrated task's slot is freed as it is: it was checked after its last CLI (afterWork,
 * and the reset after each reviewer) and holds nothing uncommitted, and the next task checks
 * it again before switching it to its branch (two gits fewer between tasks).
 */
export async function freeSlot(engine: Engine, record: TaskRecord, worktree: string): Promise<void> {
  if (isSetAside(engine.ops.slots, worktree)) return;
  if (record.state === 'integrated') {
    engine.ops.slots.release(worktree);
    return;
  }
  const problem = await releaseWorktree(engine.ops, worktree, slotExclude(engine, worktree));
  if (problem === null) engine.ops.slots.release(worktree);
  else await slotBroken(engine, record, worktree, problem);
}

/**
 * The slot after a worker's round, checked: its HEAD, and what the worker left that its run's
 * commit could not take (`left`): changes inside submodules, nested repositories, files
 * outside a sparse cone (anything `git status` still shows after the commit, ignored files
 * aside: the run names those in a notice). `left` null: nothing.
 */
export async function afterWork(engine: Engine, worktree: string, saved: string | null): Promise<{ head: string; left: string | null }> {
  // `saved`: HEAD as the worker's run left it, having checked the slot and committed there after its CLI ended.
  const { bound, head } = saved === null ? await verifiedSlot(engine.ops.slots, worktree, engine.ops.env) : { ...(await checkedSlotGit(engine.ops.slots, worktree, engine.ops.env)), head: saved };
  return { head, left: await leftoverWork(bound, engine, worktree) };
}

async function leftoverWork(bound: BoundGit, engine: Engine, worktree: string): Promise<string | null> {
  // What set-up left there is the slot's, not work (core/run/setup.ts).
  const setup = slotExclude(engine, worktree);
  const status = await bound.runOrThrow(['status', '--porcelain=v2', '-z', '--untracked-files=normal', ...(setup.length ? ['--', '.', ...excludePathspecs(setup)] : [])]);
  const contents = readContents(status, worktree);
  if (!contents.changed) return null;
  const parts: string[] = [];
  if (contents.submodules.length) parts.push(`work inside submodule${contents.submodules.length > 1 ? 's' : ''} ${nameList(contents.submodules, 5)}`);
  if (contents.nestedRepos.length) parts.push(`nested git repositor${contents.nestedRepos.length > 1 ? 'ies' : 'y'} ${nameList(contents.nestedRepos, 5)}`);
  if (!parts.length) {
    const paths = status.split('\0').filter((r) => r && r[0] !== '!').map((r) => (r[0] === '?' ? r.slice(2) : r.split(' ').slice(r[0] === '2' ? 9 : 8).join(' '))).filter(Boolean);
    parts.push(`uncommitted files ${nameList(paths, 5)} (outside a sparse checkout's cone, or otherwise not taken by git add)`);
  }
  return parts.join('; ');
}

/** The task's slot holds work the commit did not take: kept and named, and the task ends `gaps`. */
export async function keepLeftovers(engine: Engine, record: TaskRecord, worktree: string, left: string): Promise<void> {
  const where = await setAside(engine.ops.slots, worktree, keptDir(engine), engine.options.repoRoot, engine.ops.env);
  const issue = `work the commit cannot hold is left in the task's worktree: ${left}; not integrated, so nothing is lost: the worktree is kept at ${where} (branch ${record.branch})`;
  notice(engine, `${record.task.id}: ${issue}`);
  engine.store.append('slot_set_aside', { task: record.task.id, path: where, reason: 'uncommitted_work', left });
  record.issues = [issue];
  record.failedExitCode = null;
  setState(engine, record, 'gaps', { reason: issue });
}

/**
 * The workflow's git: the integration branch, the task worktrees, merging and conflicts. The
 * user's checkout, index and current branch are never touched: branches move through
 * `update-ref` (with the old value checked), merges are computed with `merge-tree
 * --write-tree` + `commit-tree`, and every checkout happens inside a worktree of ours, with
 * git bound to the slot's admin folder and work tree recorded when it was made, after the
 * slot was checked (slots.ts): never `git -C <slot>`, which follows whatever the slot's `.git`
 * says once a CLI ran there. The integration branch moves with its record
 * (integration-ref.ts).
 */
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { locateWorktree } from '../../git/bound-git.ts';
import { gitErrors } from '../../git/errors.ts';
import { git, gitOrThrow, type GitEnv } from '../../git/git.ts';
import { removeWorktree as removeWorktreeOf } from '../../git/remove-worktree.ts';
import type { MergeStyle } from '../../plugin-api/workflow-model.ts';
import { zeroId, type IntegrationMoved } from './integration-ref.ts';
import { checkSlot, forgetSlot, checkedSlotGit, isSetAside, recordSlot, slotOf, verifiedSlot } from './slots.ts';
import type { SlotPool } from './slot-pool.ts';
import { excludePathspecs } from '../../run/setup.ts';
import { ensureWorktreesDir } from '../../state-dir.ts';

const IDENTITY = ['-c', 'user.name=supervisor', '-c', 'user.email=supervisor@localhost'];

export interface GitOps {
  repoRoot: string;
  env: GitEnv;
  /** Told when the integration branch was found moved or deleted and was restored from the engine's record. */
  onIntegrationMoved?: (moved: IntegrationMoved) => void;
}

/** The engine's git: its worktree slots are in `slots`. */
export interface SlotGitOps extends GitOps {
  slots: SlotPool;
}

const ref = (branch: string) => `refs/heads/${branch}`;

export async function revParse(ops: GitOps, rev: string): Promise<string | null> {
  const result = await git(ops.repoRoot, ['rev-parse', '--verify', '-q', `${rev}^{commit}`], ops.env);
  return result.ok ? result.stdout.trim() : null;
}

/** Creates `branch` at `commit` unless it exists; returns its tip. */
export async function ensureBranch(ops: GitOps, branch: string, commit: string): Promise<string> {
  const tip = await revParse(ops, ref(branch));
  if (tip) return tip;
  // The all-zero old value (of the repository's object format): fails if someone created it meanwhile.
  await gitOrThrow(ops.repoRoot, ['update-ref', '-m', 'supervisor workflow: create', ref(branch), commit, await zeroId(ops)], ops.env);
  return commit;
}

export async function isAncestor(ops: GitOps, ancestor: string, of: string): Promise<boolean> {
  return (await git(ops.repoRoot, ['merge-base', '--is-ancestor', ancestor, of], ops.env)).ok;
}

/** Whether every one of `commits` is `tip` or an ancestor of it, in one git. */
export async function allInLine(ops: GitOps, commits: string[], tip: string): Promise<boolean> {
  const result = await git(ops.repoRoot, ['rev-list', '--max-count=1', ...commits, '--not', tip, '--'], ops.env);
  return result.ok && result.stdout.trim() === '';
}

export async function mergeBase(ops: GitOps, a: string, b: string): Promise<string> {
  return (await gitOrThrow(ops.repoRoot, ['merge-base', a, b], ops.env)).trim();
}

/**
 * Puts the task's branch (made from `start`, the integration tip, when it does not exist yet)
 * in the worktree slot at `path`: a free slot of ours is checked and switched to it (a forced
 * checkout, git bound to the slot), anything else there is replaced by a new worktree, whose
 * admin folder is recorded before any CLI runs there. A recorded slot that fails its check is
 * WORKSPACE_BROKEN (no git runs on it). The task keeps the slot for every round. `head`: the
 * commit checked out, as git just made it (null when an existing branch was checked out as it is).
 */
export async function openTaskWorktree(ops: SlotGitOps, path: string, branch: string, start: string): Promise<{ created: boolean; head: string | null }> {
  // Few git calls: between waves of tasks this is on the critical path. A new branch is the
  // common case: made by the checkout, and only when it exists already (resume) checked out as it is.
  if (existsSync(path) && slotOf(ops.slots, path)) {
    // A free slot was checked after its last CLI; the forced checkout of a branch of ours moves
    // nothing else, wherever the slot's HEAD was pointed meanwhile.
    const { bound, slot } = await checkedSlotGit(ops.slots, path, ops.env);
    if ((await bound.run(['checkout', '-q', '-f', '-b', branch, start])).ok) {
      slot.branch = branch;
      return { created: false, head: start };
    }
    if ((await bound.run(['checkout', '-q', '-f', branch])).ok) {
      slot.branch = branch;
      return { created: false, head: null };
    }
  }
  if (existsSync(path)) await removeWorktree(ops, path);
  const tip = await ensureBranch(ops, branch, start);
  await makeParent(ops, path);
  await addWorktree(ops, ['-q', path, branch]);
  recordSlot(ops.slots, path, await locateWorktree(ops.repoRoot, path, ops.env), branch);
  return { created: true, head: tip };
}

/** The folder a new worktree goes in; the repository's worktrees folder first (0700, checked: core/state-dir.ts). */
async function makeParent(ops: GitOps, path: string): Promise<void> {
  ensureWorktreesDir(ops.repoRoot);
  await mkdir(dirname(path), { recursive: true });
}

/**
 * `git worktree add`, retried briefly: while one worktree is being made, another `add` (ours
 * in parallel, or another process's) can read its half-written admin folder ("failed to read
 * .git/worktrees/<n>/commondir") and fail. A moment later it is whole. (Not serialised: the
 * first wave of tasks would wait for each other's checkouts.)
 */
async function addWorktree(ops: GitOps, args: string[]): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    const result = await git(ops.repoRoot, ['worktree', 'add', ...args], ops.env);
    if (result.ok) return;
    if (attempt >= 8 || !/failed to read .*worktrees|could not lock/i.test(result.stderr)) {
      throw gitErrors.failed(['worktree', 'add', ...args], result.stderr, result.code);
    }
    await new Promise((r) => setTimeout(r, 25 * (attempt + 1)));
  }
}

/**
 * Frees the slot of a task that did not end integrated, for the next task: checked first (the
 * reason it is broken is returned, and no git runs on it), then detached (so its branch can be
 * checked out elsewhere) and clean: after Ctrl-C, a failure or a crash, a merge in progress and
 * stray files go. No ref moves: only the slot's HEAD, index and files change.
 */
export async function releaseWorktree(ops: SlotGitOps, path: string, keep: readonly string[] = []): Promise<string | null> {
  const checked = await checkSlot(ops.slots, path, ops.env);
  if (checked.problem !== null) return checked.problem;
  const { bound, slot } = checked;
  await bound.run(['checkout', '-q', '-f', '--detach']);
  await bound.run(['clean', '-q', '-fd', ...keepPathspecs(keep)]);
  slot.branch = null;
  return null;
}

/** `git clean` pathspecs that leave `keep` (what set-up made, core/run/setup.ts) in place. */
function keepPathspecs(keep: readonly string[]): string[] {
  return keep.length ? ['--', '.', ...excludePathspecs(keep)] : [];
}

/**
 * Drops whatever is not committed on the slot's branch (a merge in progress included) and
 * puts the branch back at `to` (a reviewer's commits go), after checking the slot: its
 * branch is the task's own and no symbolic ref, so the reset moves nothing else.
 */
export async function resetWorktree(ops: SlotGitOps, path: string, to: string, keep: readonly string[] = []): Promise<void> {
  // The usual case after a reviewer: nothing changed, and one status (beside the check's own
  // git, not after it) costs less than three calls.
  const { bound, head, along: status } = await verifiedSlot(ops.slots, path, ops.env, ['status', '--porcelain']);
  if (status?.ok && status.stdout === '' && head === to) return;
  await bound.runOrThrow(['reset', '-q', '--hard', to]);
  await bound.runOrThrow(['clean', '-q', '-fd', ...keepPathspecs(keep)]);
}

/** The slot's HEAD commit, after checking the slot (WORKSPACE_BROKEN when it fails). */
export async function headOf(ops: SlotGitOps, path: string): Promise<string> {
  return (await verifiedSlot(ops.slots, path, ops.env)).head;
}

/**
 * Removes a worktree of ours: a slot by the folders recorded when it was made, any other through
 * the repository (never through the folder's own `.git`; core/git/remove-worktree.ts). A slot
 * set aside stays.
 */
export async function removeWorktree(ops: SlotGitOps, path: string): Promise<void> {
  if (isSetAside(ops.slots, path)) return;
  const slot = slotOf(ops.slots, path);
  forgetSlot(ops.slots, path);
  await removeWorktreeOf(ops.repoRoot, path, slot?.git, ops.env);
}


/** The commit that would integrate `head` on `tip`, built without a checkout; nothing moves. */
export type TaskCommit = { ok: true; commit: string; fastForward: boolean } | { ok: false; conflicts: string[] };

/** The tree of `ours` and `theirs` merged (merge-tree --write-tree), or the conflicting files. */
export async function mergedTree(ops: GitOps, ours: string, theirs: string): Promise<{ ok: true; tree: string } | { ok: false; conflicts: string[] }> {
  const merged = await git(ops.repoRoot, ['merge-tree', '--write-tree', '--name-only', '--no-messages', ours, theirs], ops.env);
  const lines = merged.stdout.split('\n').filter(Boolean);
  if (merged.code === 1) return { ok: false, conflicts: [...new Set(lines.slice(1))] };
  if (!merged.ok || !lines[0]) throw gitErrors.failed(['merge-tree', '--write-tree', ours, theirs], merged.stderr, merged.code);
  return { ok: true, tree: lines[0] };
}

/** A commit of `tree` on `parents`, by supervisor, with `message` (trailers included). */
export async function commitTree(ops: GitOps, tree: string, parents: string[], message: string): Promise<string> {
  return (await gitOrThrow(ops.repoRoot, [...IDENTITY, '-c', 'commit.gpgsign=false', 'commit-tree', tree, ...parents.flatMap((p) => ['-p', p]), '-m', message], ops.env)).trim();
}

/**
 * Builds the ONE commit that integrates a task's `head` into `tip`, so the integration
 * branch's first-parent history is one commit per task a reviewer can audit: `merge` (the
 * default) a merge commit of the task branch even when a fast-forward is possible (`--no-ff`),
 * `squash` one commit of the merged tree on `tip` alone. `tip` itself when `head` is already
 * in it. Built with `merge-tree --write-tree` + `commit-tree`; conflicts are returned; no ref moves.
 */
export async function buildTaskCommit(ops: GitOps, tip: string, head: string, message: string, style: MergeStyle = 'merge'): Promise<TaskCommit> {
  // Asked at once: the merge queue waits on every step.
  const [inTip, merged] = await Promise.all([isAncestor(ops, head, tip), mergedTree(ops, tip, head)]);
  if (inTip) return { ok: true, commit: tip, fastForward: true };
  if (!merged.ok) return merged;
  const commit = await commitTree(ops, merged.tree, style === 'squash' ? [tip] : [tip, head], message);
  return { ok: true, commit, fastForward: false };
}

/** What the integration branch's commit of a task says: the task, and the trailers that make it auditable. */
export interface TaskMergeInfo {
  workflowId: string;
  taskId: string;
  title: string;
  /** The task branch (named in a merge commit's subject). */
  branch: string;
  /** Every run of the task, oldest first. */
  runIds: string[];
  /** The reviewer roles that passed the change merged. */
  reviewedBy: string[];
  /** Who approved the merge, when a person did. */
  approvedBy: string | null;
  style: MergeStyle;
}

/** Trailer values are one line each: a newline in a title or a name would forge another trailer. */
const oneLine = (text: string) => text.replace(/[\r\n]+/g, ' ').trim();

/**
 * The integration branch's commit message for a task: its subject names the task, its trailers
 * (`git interpret-trailers --parse`, `git log --format=%(trailers)`) the workflow, the task,
 * the runs, the reviewers that passed it and who approved it.
 */
export function taskMergeMessage(info: TaskMergeInfo): string {
  const subject = `${info.style === 'squash' ? 'Task' : 'Merge task'} ${info.taskId}: ${oneLine(info.title)}`;
  const body = info.style === 'squash' ? `The change of ${info.branch}, squashed (workflow ${info.workflowId}).` : `Merges ${info.branch} (workflow ${info.workflowId}).`;
  const trailers = [
    `Supervisor-Workflow: ${info.workflowId}`,
    `Supervisor-Task: ${info.taskId}`,
    `Supervisor-Runs: ${info.runIds.join(', ') || '-'}`,
    `Supervisor-Reviewed-By: ${info.reviewedBy.join(', ') || '-'}`,
    ...(info.approvedBy ? [`Supervisor-Approved-By: ${oneLine(info.approvedBy)}`] : []),
  ];
  return `${subject}\n\n${body}\n\n${trailers.join('\n')}\n`;
}

/** The tasks whose commit is on the integration branch's first-parent line since `base` (their Supervisor-Task trailers). */
export async function integratedTaskIds(ops: GitOps, base: string, branch: string): Promise<Set<string>> {
  const log = await git(ops.repoRoot, ['log', '--first-parent', '--format=%(trailers:key=Supervisor-Task,valueonly,separator=%x2C)', `${base}..${ref(branch)}`], ops.env);
  return new Set(log.ok ? log.stdout.split(/[\n,]/).map((s) => s.trim()).filter(Boolean) : []);
}

/**
 * Starts merging the integration tip into the task branch inside the task's slot (checked,
 * git bound to it), leaving the conflict markers for the worker's extra round. Returns the
 * conflicting files.
 */
export async function startConflictMerge(ops: SlotGitOps, path: string, tip: string): Promise<string[]> {
  const { bound } = await verifiedSlot(ops.slots, path, ops.env);
  const merged = await bound.run([...IDENTITY, 'merge', '--no-ff', '--no-edit', tip]);
  if (merged.ok) return [];
  const names = await bound.run(['diff', '--name-only', '--diff-filter=U']);
  return names.stdout.split('\n').filter(Boolean);
}

/** Files in `commit` among `files` that still hold conflict markers. */
export async function filesWithMarkers(ops: GitOps, commit: string, files: string[]): Promise<string[]> {
  if (!files.length) return [];
  const found = await git(ops.repoRoot, ['grep', '-l', '-E', '^(<<<<<<<|>>>>>>>)( |$)', commit, '--', ...files], ops.env);
  return found.stdout.split('\n').filter(Boolean).map((line) => line.slice(commit.length + 1));
}

/**
 * A detached worktree at `commit` (the gates'), made once and moved on: checked and bound
 * like a slot; one that fails its check is replaced (the gates' commands are the plan's,
 * but nothing is run on a git dir they may have rewritten). True when it was made anew;
 * `keep` (what set-up made there) survives the clean.
 */
export async function detachedWorktreeAt(ops: SlotGitOps, path: string, commit: string, keep: readonly string[] = []): Promise<boolean> {
  if (existsSync(path)) {
    const checked = slotOf(ops.slots, path) ? await checkSlot(ops.slots, path, ops.env) : null;
    if (checked && checked.problem === null) {
      const moved = await checked.bound.run(['checkout', '-q', '--detach', '-f', commit]);
      if (moved.ok) {
        await checked.bound.runOrThrow(['clean', '-q', '-fd', ...keepPathspecs(keep)]);
        return false;
      }
    }
    await removeWorktree(ops, path);
  }
  await makeParent(ops, path);
  await addWorktree(ops, ['-q', '--detach', path, commit]);
  recordSlot(ops.slots, path, await locateWorktree(ops.repoRoot, path, ops.env), null);
  return true;
}

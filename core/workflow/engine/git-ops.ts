/**
 * The workflow's git: the integration branch, the task worktrees, merging and conflicts. The
 * user's checkout, index and current branch are never touched: branches move through
 * `update-ref` (with the old value checked), merges are computed with `merge-tree
 * --write-tree` + `commit-tree`, and every checkout happens inside a worktree of ours.
 */
import { existsSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { git, gitOrThrow, type GitEnv } from '../../engine/git.ts';
import type { MergeStyle } from '../model.ts';

const IDENTITY = ['-c', 'user.name=supervisor', '-c', 'user.email=supervisor@localhost'];

export interface GitOps {
  repoRoot: string;
  env: GitEnv;
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
  // The all-zero old value: fails if someone created it meanwhile.
  await gitOrThrow(ops.repoRoot, ['update-ref', '-m', 'supervisor workflow: create', ref(branch), commit, '0'.repeat(40)], ops.env);
  return commit;
}

export async function isAncestor(ops: GitOps, ancestor: string, of: string): Promise<boolean> {
  return (await git(ops.repoRoot, ['merge-base', '--is-ancestor', ancestor, of], ops.env)).ok;
}

export async function mergeBase(ops: GitOps, a: string, b: string): Promise<string> {
  return (await gitOrThrow(ops.repoRoot, ['merge-base', a, b], ops.env)).trim();
}

/**
 * Puts the task's branch (made from `start`, the integration tip, when it does not exist yet)
 * in the worktree slot at `path`: a free slot of ours is switched to it (a forced checkout,
 * then clean: whatever a killed run or a reviewer left goes), anything else there is replaced
 * by a new worktree. The task keeps it for every round.
 */
export async function openTaskWorktree(ops: GitOps, path: string, branch: string, start: string): Promise<{ created: boolean }> {
  // Few git calls: between waves of tasks this is on the critical path.
  const exists = (await revParse(ops, `refs/heads/${branch}`)) !== null;
  if (existsSync(path)) {
    const switched = await git(path, ['checkout', '-q', '-f', ...(exists ? [branch] : ['-b', branch, start])], ops.env);
    if (switched.ok) return { created: false };
    await removeWorktree(ops, path);
  }
  await ensureBranch(ops, branch, start);
  await mkdir(dirname(path), { recursive: true });
  await addWorktree(ops, ['-q', path, branch]);
  return { created: true };
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
      throw new Error(`git worktree add ${args.join(' ')} failed: ${result.stderr.trim()}`);
    }
    await new Promise((r) => setTimeout(r, 25 * (attempt + 1)));
  }
}

/**
 * Frees a slot for the next task: detached (so its branch can be checked out elsewhere) and
 * clean. After a normal task nothing is left (the worker's run commits everything, reviewers'
 * edits are reset); after Ctrl-C, a failure or a crash, a merge in progress and stray files go.
 */
export async function releaseWorktree(path: string, env: GitEnv, thorough = false): Promise<void> {
  if (!thorough && (await git(path, ['checkout', '-q', '--detach'], env)).ok) return;
  await git(path, ['merge', '--abort'], env);
  await git(path, ['reset', '-q', '--hard'], env);
  await git(path, ['clean', '-q', '-fd'], env);
  await git(path, ['checkout', '-q', '--detach'], env);
}

/** Drops whatever is not committed on the worktree's branch (a merge in progress included). */
export async function resetWorktree(path: string, env: GitEnv, to = 'HEAD'): Promise<void> {
  // The usual case after a reviewer: nothing changed, and one status costs less than three calls.
  const [status, head, target] = await Promise.all([git(path, ['status', '--porcelain'], env), git(path, ['rev-parse', 'HEAD'], env), git(path, ['rev-parse', to], env)]);
  if (status.ok && status.stdout === '' && head.ok && target.ok && head.stdout === target.stdout) return;
  await git(path, ['merge', '--abort'], env);
  await gitOrThrow(path, ['reset', '-q', '--hard', to], env);
  await gitOrThrow(path, ['clean', '-q', '-fd'], env);
}

export async function headOf(path: string, env: GitEnv): Promise<string> {
  return (await gitOrThrow(path, ['rev-parse', 'HEAD'], env)).trim();
}

export async function removeWorktree(ops: GitOps, path: string): Promise<void> {
  const removed = await git(ops.repoRoot, ['worktree', 'remove', '--force', '--force', path], ops.env);
  if (removed.ok) return;
  await rm(path, { recursive: true, force: true });
  await git(ops.repoRoot, ['worktree', 'prune'], ops.env);
}

export type MergeOutcome = { ok: true; tip: string; fastForward: boolean } | { ok: false; conflicts: string[] };

/** The commit that would integrate `head` on `tip`, built without a checkout; nothing moves. */
export type TaskCommit = { ok: true; commit: string; fastForward: boolean } | { ok: false; conflicts: string[] };

/** The tree of `ours` and `theirs` merged (merge-tree --write-tree), or the conflicting files. */
export async function mergedTree(ops: GitOps, ours: string, theirs: string): Promise<{ ok: true; tree: string } | { ok: false; conflicts: string[] }> {
  const merged = await git(ops.repoRoot, ['merge-tree', '--write-tree', '--name-only', '--no-messages', ours, theirs], ops.env);
  const lines = merged.stdout.split('\n').filter(Boolean);
  if (merged.code === 1) return { ok: false, conflicts: [...new Set(lines.slice(1))] };
  if (!merged.ok || !lines[0]) throw new Error(`git merge-tree failed: ${merged.stderr.trim()}`);
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
  if (await isAncestor(ops, head, tip)) return { ok: true, commit: tip, fastForward: true };
  const merged = await mergedTree(ops, tip, head);
  if (!merged.ok) return merged;
  const commit = await commitTree(ops, merged.tree, style === 'squash' ? [tip] : [tip, head], message);
  return { ok: true, commit, fastForward: false };
}

/** Moves `branch` from `old` to `next`, only if it still points at `old` (compare-and-swap). */
export async function moveBranch(ops: GitOps, branch: string, next: string, old: string, message: string): Promise<void> {
  if (next === old) return;
  await gitOrThrow(ops.repoRoot, ['update-ref', '-m', message, ref(branch), next, old], ops.env);
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
 * Merges `head` into the integration branch without a checkout (buildTaskCommit), then moves
 * the branch by compare-and-swap. Conflicts are returned, nothing is written.
 */
export async function mergeIntoBranch(ops: GitOps, branch: string, head: string, message: string, style: MergeStyle = 'merge'): Promise<MergeOutcome> {
  const tip = await revParse(ops, ref(branch));
  if (!tip) throw new Error(`the integration branch ${branch} is gone`);
  const built = await buildTaskCommit(ops, tip, head, message, style);
  if (!built.ok) return built;
  await moveBranch(ops, branch, built.commit, tip, message);
  return { ok: true, tip: built.commit, fastForward: built.fastForward };
}

/**
 * Starts merging the integration tip into the task branch inside the task's worktree, leaving
 * the conflict markers for the worker's extra round. Returns the conflicting files.
 */
export async function startConflictMerge(path: string, tip: string, env: GitEnv): Promise<string[]> {
  const merged = await git(path, [...IDENTITY, '-c', 'commit.gpgsign=false', 'merge', '--no-ff', '--no-edit', tip], env);
  if (merged.ok) return [];
  const names = await git(path, ['diff', '--name-only', '--diff-filter=U'], env);
  return names.stdout.split('\n').filter(Boolean);
}

/** Files in `commit` among `files` that still hold conflict markers. */
export async function filesWithMarkers(ops: GitOps, commit: string, files: string[]): Promise<string[]> {
  if (!files.length) return [];
  const found = await git(ops.repoRoot, ['grep', '-l', '-E', '^(<<<<<<<|>>>>>>>)( |$)', commit, '--', ...files], ops.env);
  return found.stdout.split('\n').filter(Boolean).map((line) => line.slice(commit.length + 1));
}

/** A detached worktree at `commit` (the gates'), made once and moved on. */
export async function detachedWorktreeAt(ops: GitOps, path: string, commit: string): Promise<void> {
  if (existsSync(path)) {
    const moved = await git(path, ['checkout', '-q', '--detach', '-f', commit], ops.env);
    if (moved.ok) {
      await gitOrThrow(path, ['clean', '-q', '-fd'], ops.env);
      return;
    }
    await removeWorktree(ops, path);
  }
  await mkdir(dirname(path), { recursive: true });
  await addWorktree(ops, ['-q', '--detach', path, commit]);
}

/**
 * Where a workflow lives: its branches and folders. The integration branch is
 * `supervisor/wf/<id>`; each task works on `supervisor/wf/<id>--<task-id>` (a ref cannot be
 * both a branch and a folder of branches, so the task branches sit beside it, not under it).
 */
import { join } from 'node:path';
import { statePaths } from '../../state-dir.ts';

export function integrationBranch(workflowId: string): string {
  return `supervisor/wf/${workflowId}`;
}

export function taskBranch(workflowId: string, taskId: string): string {
  return `supervisor/wf/${workflowId}--${taskId}`;
}

/**
 * Which workflow (of `knownIds`) a branch belongs to, and which of its tasks (null: the
 * integration branch); null when none. Matched through the two functions above, never by
 * splitting the name: an id may itself hold `-` or `--`, so the longest known id wins.
 */
export function workflowOfBranch(branch: string, knownIds: readonly string[]): { workflowId: string; taskId: string | null } | null {
  let best: { workflowId: string; taskId: string | null } | null = null;
  for (const id of knownIds) {
    if (best && best.workflowId.length >= id.length) continue;
    if (branch === integrationBranch(id)) best = { workflowId: id, taskId: null };
    else if (branch.startsWith(taskBranch(id, '')) && branch.length > taskBranch(id, '').length) best = { workflowId: id, taskId: branch.slice(taskBranch(id, '').length) };
  }
  return best;
}

export interface WorkflowPaths {
  /** `.supervisor/workflows/<id>/`: plan.json, events.jsonl, result.json. */
  dir: string;
  /** `<worktrees>/wf/<id>/` (outside the checkout: worktreesDir in core/state-dir.ts): the task slots, the gates' worktree. */
  worktrees: string;
}

export function workflowsDir(repoRoot: string): string {
  return join(statePaths(repoRoot).root, 'workflows');
}

export function workflowPaths(repoRoot: string, workflowId: string): WorkflowPaths {
  return { dir: join(workflowsDir(repoRoot), workflowId), worktrees: join(statePaths(repoRoot).worktrees, 'wf', workflowId) };
}

/**
 * The n-th worktree slot. A task takes a free slot (switched to its branch: only the files that
 * differ are written) or makes a new one, and keeps it for all its rounds; so at most `--jobs`
 * checkouts of the repository are ever made, however many tasks the plan has. Each resume
 * uses new names (its generation): a CLI orphaned by kill -9 may still be writing in the old.
 */
export function slotWorktree(paths: WorkflowPaths, n: number, generation = 0): string {
  return join(slotsDir(paths), generation ? `${generation}-${n}` : String(n));
}

export function slotsDir(paths: WorkflowPaths): string {
  return join(paths.worktrees, 'slots');
}

export function gatesWorktree(paths: WorkflowPaths): string {
  return join(paths.worktrees, 'gates');
}

/**
 * `workflow discard <id> [--force]`: removes a workflow's branches, worktrees, runs and state.
 * Refused while the workflow runs (its lock is busy), and, without `force`, while a branch of
 * it holds work found nowhere else (named in the refusal). The user's checkout and branches
 * are never touched: only `supervisor/wf/<id>` and its task branches go.
 */
import { isSupervisorError } from '../errors.ts';
import type { AppDeps } from './deps.ts';
import { appErrors } from './errors.ts';

export interface DiscardInput {
  /** A workflow id or a unique part of one (a discard cut short, its state gone: the exact id). */
  id: string;
  force: boolean;
}

export interface DiscardOutcome {
  workflow_id: string;
  /** The branches deleted, each with the work that was only there (null: it was merged). */
  branches: { name: string; commit: string; unmerged: string | null }[];
  worktrees: string[];
  runs: string[];
  /** Whether the workflow's state folder was removed. */
  state: boolean;
}

async function resolve(id: string, deps: AppDeps): Promise<string> {
  const { resolveWorkflowId } = await import('../workflow/engine/workflow-id.ts');
  const { integrationBranch } = await import('../workflow/engine/names.ts');
  const { git } = await import('../git/git.ts');
  try {
    return resolveWorkflowId(deps.repoRoot, id);
  } catch (error) {
    // Its state gone (a discard cut short) but its integration branch still there: the exact id names it.
    if (!isSupervisorError(error) || error.code !== 'WORKFLOW_NOT_FOUND') throw error;
    const branch = await git(deps.repoRoot, ['rev-parse', '--verify', '-q', `refs/heads/${integrationBranch(id)}`], deps.env);
    if (!branch.ok) throw error;
    return id;
  }
}

export async function workflowDiscard(input: DiscardInput, deps: AppDeps): Promise<DiscardOutcome> {
  const { WorkflowStore } = await import('../workflow/engine/store.ts');
  const { inventoryDiscard, removeDiscarded } = await import('../workflow/engine/discard.ts');
  const id = await resolve(input.id, deps);
  const store = new WorkflowStore(deps.repoRoot, id);
  const lock = store.exists() ? store.lock() : null;
  try {
    const ops = { repoRoot: deps.repoRoot, env: deps.env };
    const inventory = await inventoryDiscard(ops, id);
    const unmerged = inventory.branches.flatMap((b) => (b.unmerged ? [{ name: b.name, why: b.unmerged }] : []));
    if (unmerged.length && !input.force) throw appErrors.discardUnmerged(id, unmerged);
    const removed = await removeDiscarded(ops, inventory);
    if (!removed.ok) throw appErrors.discardMoved(id, removed.problem);
    return { workflow_id: id, branches: inventory.branches, worktrees: inventory.worktrees, runs: inventory.runs, state: inventory.state };
  } finally {
    lock?.release();
  }
}

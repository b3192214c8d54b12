/**
 * A new workflow's id, claimed under its lock: the plan's id, else `<id>-2`, `-3`, ... (a
 * finished run keeps its id and branches). An unfinished run of the same plan file is refused
 * with the command that resumes it, or the process that owns it.
 */
import { isSupervisorError } from '../../errors.ts';
import { dateOf } from './clock.ts';
import type { WorkflowRunOptions } from './context.ts';
import { engineErrors } from './errors.ts';
import { revParse, type GitOps } from './git-ops.ts';
import { recordRef } from './integration-ref.ts';
import type { WorkflowLock } from './lock.ts';
import { integrationBranch } from './names.ts';
import { RESUMABLE } from './result.ts';
import { listWorkflowIds, WorkflowStore } from './store.ts';

/** Whether the workflow may be resumed; one whose result cannot be read is left to `workflow list` and never blocks a new run. */
function unfinished(store: WorkflowStore): boolean {
  let result;
  try {
    result = store.result();
  } catch (error) {
    if (isSupervisorError(error) && error.code === 'WORKFLOW_CORRUPT') return false;
    throw error;
  }
  return !result || RESUMABLE.includes(result.status);
}

/**
 * The first free id: the plan's, else `<id>-2`, `-3`, ... (a finished run keeps its own). An
 * unfinished run of the same file, even of an edited version of it, is refused with the command
 * that resumes it (or, while it runs, the process that owns it): a new run never quietly starts
 * beside it.
 */
async function freshId(options: WorkflowRunOptions, ops: GitOps): Promise<string> {
  const id = options.workflow.id;
  for (const other of listWorkflowIds(options.repoRoot)) {
    const store = new WorkflowStore(options.repoRoot, other);
    // A workflow whose state cannot be read is its own problem (workflow list names it), not this run's.
    const plan = readable(() => store.plan());
    if (plan?.source.file === options.workflow.source.file && unfinished(store)) refuseUnfinished(store, options.workflow.source.file);
  }
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? id : `${id}-${n}`;
    const store = new WorkflowStore(options.repoRoot, candidate);
    const owner = store.owner();
    if (owner) throw engineErrors.busy(candidate, owner.pid);
    if (store.exists()) {
      if (unfinished(store)) refuseUnfinished(store, options.workflow.source.file);
      continue;
    }
    const taken = await Promise.all([revParse(ops, `refs/heads/${integrationBranch(candidate)}`), revParse(ops, recordRef(integrationBranch(candidate)))]);
    if (taken.some(Boolean)) continue;
    return candidate;
  }
}

function refuseUnfinished(store: WorkflowStore, file: string): never {
  const owner = store.owner();
  throw owner ? engineErrors.busy(store.id, owner.pid) : engineErrors.unfinished(store.id, file);
}

/** The value, or null when the workflow's state is corrupt. */
function readable<T>(read: () => T): T | null {
  try {
    return read();
  } catch (error) {
    if (isSupervisorError(error) && error.code === 'WORKFLOW_CORRUPT') return null;
    throw error;
  }
}

/** A fresh id and its lock: a run started meanwhile under the same id is seen once the lock is ours. */
export async function claimId(options: WorkflowRunOptions, ops: GitOps): Promise<{ store: WorkflowStore; lock: WorkflowLock }> {
  for (;;) {
    const id = await freshId(options, ops);
    const store = new WorkflowStore(options.repoRoot, id, dateOf(options));
    const lock = store.lock();
    if (!store.exists()) return { store, lock };
    lock.release();
  }
}

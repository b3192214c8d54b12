/**
 * A person in the loop: a task with `approve: true` waits in `awaiting_approval` after its
 * reviewers pass; `supervisor workflow approve` / `reject` record the decision as an `approval`
 * event (who: the OS user; when: the event's time; the round it was about) and the next resume
 * acts on it (approved → merged; rejected → the issues are the worker's next round's feedback);
 * it holds until acted on, through any interruption (state.ts). The decision is
 * written while no process runs the workflow, so it never races the engine.
 */
import { userInfo } from 'node:os';
import type { ApprovalDecision } from './approval-decision.ts';
import type { Engine, TaskRecord } from './context.ts';
import { engineErrors } from './errors.ts';
import { foldEvents } from './state.ts';
import { WorkflowStore, type WorkflowEvent } from './store.ts';

export type { ApprovalDecision };

/** The OS user, for the record of who decided. */
export function osUser(env: Record<string, string | undefined> = process.env): string {
  try {
    return userInfo().username || env.USER || 'unknown';
  } catch {
    return env.USER ?? env.USERNAME ?? 'unknown';
  }
}

/** `--approve-all`: the decision is recorded like a person's, naming the flag. */
export function approveAllDecision(engine: Engine, record: TaskRecord): ApprovalDecision {
  const decision: ApprovalDecision = { decision: 'approved', by: `${osUser(engine.options.env)} (--approve-all)`, issues: [] };
  engine.store.append('approval', { task: record.task.id, ...decision, round: record.round });
  return decision;
}

/**
 * Records a person's decision on tasks waiting for approval. Refused while the workflow runs
 * (its process decides nothing it did not read), for an unknown task, and for a task that is
 * not waiting (its state named).
 */
export function decideTasks(repoRoot: string, id: string, tasks: string[], decision: ApprovalDecision): WorkflowEvent[] {
  const store = new WorkflowStore(repoRoot, id);
  if (!store.exists()) throw engineErrors.notFound(id, []);
  // The workflow's lock (WORKFLOW_BUSY while it runs): the decision is read and written by one owner.
  const lock = store.lock();
  try {
    return decideLocked(store, id, tasks, decision);
  } finally {
    lock.release();
  }
}

function decideLocked(store: WorkflowStore, id: string, tasks: string[], decision: ApprovalDecision): WorkflowEvent[] {
  const state = foldEvents(store.plan(), store.events());
  for (const task of tasks) {
    const fold = state.tasks.get(task);
    if (!fold) throw engineErrors.taskNotFound(id, task, [...state.tasks.keys()]);
    if (fold.status !== 'awaiting_approval') throw engineErrors.notAwaiting(id, task, fold.status, [...state.tasks.values()].filter((t) => t.status === 'awaiting_approval').map((t) => t.id));
  }
  if (decision.decision === 'rejected' && !decision.issues.some((i) => i.trim())) throw engineErrors.rejectWithoutIssues(id);
  return [...new Set(tasks)].map((task) => store.append('approval', { task, decision: decision.decision, by: decision.by, issues: decision.issues, round: state.tasks.get(task)!.round }));
}

/**
 * A recorded workflow taken over by this process (resume, approve, reject, retry): the record's
 * state replayed into the engine (state.ts), the money its runs spent booked in the ledger, and
 * each unfinished task set where it picks up: a decision acts, a task caught mid-merge is found
 * merged or not by git, anything else continues at its resume point (resume-point.ts).
 */
import { approveAllDecision } from './approval.ts';
import { setState, type Engine, type TaskRecord } from './context.ts';
import { integratedTaskIds, isAncestor, revParse } from './git-ops.ts';
import { findResumePoint } from './resume-point.ts';
import { applyEvent } from './state.ts';
import { FINAL_TASK_STATES, type WorkflowEvent } from './store.ts';

/** The record's events applied to the engine's state (before this process writes its own). */
export function replay(engine: Engine, events: readonly WorkflowEvent[]): void {
  for (const event of events) applyEvent(engine.state, event);
  for (const record of engine.tasks.values()) {
    record.round = record.fold.round;
    record.issues = [...record.fold.issues];
    for (const run of record.runs) engine.ledger.book(run.cost_known ? (run.cost_usd ?? 0) : null);
  }
}

/** Killed between the merge and its event: git says whether the task is in. */
async function foundMerged(engine: Engine, record: TaskRecord, landed: Set<string>): Promise<boolean> {
  if (record.state !== 'integrating') return false;
  const head = await revParse(engine.ops, `refs/heads/${record.branch}`);
  // A squashed task's head is not an ancestor of the branch: its commit's trailer says it landed.
  return head !== null && (landed.has(record.task.id) || (await isAncestor(engine.ops, head, engine.integration)));
}

/** Sets every unfinished task where it picks up: final states stay, anything caught mid-way runs again from its branch. */
export async function restore(engine: Engine): Promise<void> {
  const landed = await integratedTaskIds(engine.ops, engine.base, engine.integration);
  for (const record of engine.tasks.values()) {
    if (FINAL_TASK_STATES.includes(record.state)) continue;
    if (await foundMerged(engine, record, landed)) {
      record.issues = [];
      setState(engine, record, 'integrated', { reason: `found merged into ${engine.integration} on resume (killed between the merge and its event)` });
      continue;
    }
    if (record.state === 'awaiting_approval' && !record.decision && engine.options.approveAll) approveAllDecision(engine, record);
    if (record.state === 'awaiting_approval' && !record.decision) continue;
    if (record.decision) {
      // A decision holds until acted on, whatever interrupted the process that acted on it.
      record.round = record.decision.round;
      setState(engine, record, 'pending', { reason: `${record.decision.decision} by ${record.decision.by}` });
      continue;
    }
    record.issues = [];
    await findResumePoint(engine, record);
    const maxRounds = engine.options.maxRounds ?? record.task.max_rounds;
    if (record.feedback && record.round > maxRounds) {
      // Its last round was judged before the interruption: it ends as it would have.
      record.issues = record.feedback.flatMap(({ role, issues }) => issues.map((i) => `[${role}] ${i}`));
      setState(engine, record, 'gaps', { reason: `round ${record.round - 1} of ${maxRounds} (the last) ended with gaps from ${record.feedback.map((f) => f.role).join(', ')} (found on resume)` });
      record.feedback = null;
      continue;
    }
    const from = record.resumeAt ? `round ${record.resumeAt.round}'s finished worker (${record.resumeAt.head.slice(0, 7)})` : `round ${Math.max(record.round, 1)}, from ${record.branch}`;
    setState(engine, record, 'pending', { reason: `resumed: continues at ${from}` });
  }
}

/**
 * A recorded workflow's state rebuilt from its event log: each task's state, round, issues and
 * why, the money its runs spent (booked in the ledger), where each unfinished task picks up
 * (resume-point.ts) and the gates' last verdict; and the settings it runs with.
 */
import { approvalFromEvent, approveAllDecision } from './approval.ts';
import { setState, type Engine } from './context.ts';
import { restoreGates } from './final-gates.ts';
import { integratedTaskIds, isAncestor, revParse } from './git-ops.ts';
import { findResumePoint } from './resume-point.ts';
import { FINAL_TASK_STATES, type TaskState, type WorkflowEvent } from './store.ts';

/** Rebuilds the task records from the events: final states stay, anything caught mid-way runs again from its branch. */
export async function restore(engine: Engine, events: WorkflowEvent[]): Promise<void> {
  for (const event of events) {
    const record = typeof event.task === 'string' ? engine.tasks.get(event.task) : undefined;
    if (!record) continue;
    if (event.kind === 'approval') {
      record.decision = approvalFromEvent(event);
      if (record.decision?.decision === 'approved') record.approvedBy = record.decision.by;
    } else if (event.kind === 'task_state') {
      record.state = event.state as TaskState;
      if (record.state !== 'pending' && record.state !== 'awaiting_approval') record.decision = null;
      record.round = typeof event.round === 'number' ? event.round : record.round;
      record.rounds = Math.max(record.rounds, record.round);
      record.issues = Array.isArray(event.issues) ? (event.issues as string[]) : [];
      record.why = typeof event.reason === 'string' ? event.reason : null;
      if (event.retry === true) record.rounds = 0;
    } else if (event.kind === 'run_finished' && typeof event.run_id === 'string') {
      const cost = typeof event.cost_usd === 'number' ? event.cost_usd : null;
      engine.ledger.book(event.cost_known === false ? null : (cost ?? 0));
      record.runs.push({
        run_id: event.run_id,
        role: String(event.role),
        round: Number(event.round),
        cli: typeof event.cli === 'string' ? event.cli : null,
        status: String(event.status),
        exit_code: Number(event.exit_code),
        cost_usd: cost,
        started_at: String(event.started_at ?? event.ts),
        finished_at: String(event.finished_at ?? event.ts),
        input_tokens: typeof event.input_tokens === 'number' ? event.input_tokens : null,
        output_tokens: typeof event.output_tokens === 'number' ? event.output_tokens : null,
        duration_ms: typeof event.duration_ms === 'number' ? event.duration_ms : 0,
        cost_known: event.cost_known !== false,
      });
    }
  }
  const landed = await integratedTaskIds(engine.ops, engine.base, engine.integration);
  for (const record of engine.tasks.values()) {
    if (FINAL_TASK_STATES.includes(record.state)) continue;
    if (record.state === 'awaiting_approval' && !record.decision && engine.options.approveAll) record.decision = approveAllDecision(engine, record);
    if (record.state === 'awaiting_approval' && !record.decision) continue;
    if (record.decision) {
      setState(engine, record, 'pending', { reason: `${record.decision.decision} by ${record.decision.by}` });
      continue;
    }
    // Killed between the merge and its event: git says whether the task is in.
    const head = await revParse(engine.ops, `refs/heads/${record.branch}`);
    // A squashed task's head is not an ancestor of the branch: its commit's trailer says it landed.
    if (record.state === 'integrating' && head && (landed.has(record.task.id) || (await isAncestor(engine.ops, head, engine.integration)))) {
      record.issues = [];
      setState(engine, record, 'integrated', { reason: `found merged into ${engine.integration} on resume (killed between the merge and its event)` });
      continue;
    }
    record.issues = [];
    await findResumePoint(engine, record, events);
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
  restoreGates(engine, events);
}

/** The settings a workflow runs with: the start's, then each resume's, then this command's. */
export function lastSettings(events: WorkflowEvent[]): WorkflowEvent {
  const settings = { ...(events.find((e) => e.kind === 'workflow_started') ?? ({} as WorkflowEvent)) };
  for (const e of events) {
    if (e.kind !== 'workflow_resumed') continue;
    for (const key of ['jobs', 'max_cost_usd', 'min_run_usd', 'quota_wait_ms'] as const) if (e[key] !== undefined && e[key] !== null) settings[key] = e[key];
  }
  return settings;
}

/**
 * A workflow as the remote holds it, read from any clone (`workflow status|show|logs --remote`,
 * the final step, resume): each task's state ref and whether the integration branch holds it,
 * and the result. Every ref is checked (REMOTE_STATE_INVALID names the bad one).
 */
import type { WorkflowTask } from '../../plugin-api/workflow-model.ts';
import type { WorkflowEvent } from '../engine/events.ts';
import { foldEvents, type CurrentRun } from '../engine/state.ts';
import { remoteRefs } from './names.ts';
import { readResult, type RemoteWorkflowResult } from './result-ref.ts';
import type { RemoteSession, RemoteSnapshot } from './session.ts';
import { readTaskState, type TaskStateFile } from './task-state.ts';

export interface RemoteTaskView {
  id: string;
  /** integrated when the branch holds its trailer (whatever its state ref says); pending when nothing was written. */
  status: TaskStateFile['status'] | 'pending';
  integrated: boolean;
  state: TaskStateFile | null;
  /** From its events, by the engine's reducer (state.ts): why it is where it is, and the run going on now. */
  why: string | null;
  current: CurrentRun | null;
  events: WorkflowEvent[];
}

/** A task's events folded by the engine's own reducer, as a local workflow's status reads them. */
function foldTask(id: string, events: readonly WorkflowEvent[]): { why: string | null; current: CurrentRun | null } {
  const first = events.find((e): e is Extract<WorkflowEvent, { kind: 'run_started' }> => e.kind === 'run_started' && e.task === id);
  const worker = first?.role ?? 'worker';
  const fold = foldEvents({ tasks: [{ id, worker } as WorkflowTask] }, events).tasks.get(id);
  return { why: fold?.why ?? null, current: fold?.current ?? null };
}

export interface RemoteWorkflowView {
  workflow_id: string;
  remote: string;
  /** pass/gaps/... from the result when it judged the branch's current tip; running while tasks are; else pending. */
  status: string;
  integration_branch: string;
  tip: string | null;
  tasks: RemoteTaskView[];
  result: RemoteWorkflowResult | null;
  /** The result was written for another tip than the branch's now. */
  result_stale: boolean;
}

/** The tasks named by the plan (`taskIds`), else those the remote has state or trailers of. */
export async function readRemoteWorkflow(session: RemoteSession, snapshot: RemoteSnapshot, taskIds?: string[]): Promise<RemoteWorkflowView> {
  const wf = session.workflowId;
  const ids = taskIds ?? [...new Set([...snapshot.states.keys(), ...snapshot.integrated.keys()])].sort();
  const tasks: RemoteTaskView[] = [];
  for (const id of ids) {
    const commit = snapshot.states.get(id);
    const read = commit ? await readTaskState(session.ctx, commit, remoteRefs.state(wf, id), { workflow: wf, task: id }) : null;
    const integrated = snapshot.integrated.has(id);
    const events = read?.events ?? [];
    const status = integrated ? 'integrated' : (read?.task.status ?? 'pending');
    // A running state on the remote names the run going on; any other is settled (a killed job's run is not going on).
    const folded = foldTask(id, events);
    tasks.push({ id, status, integrated, state: read?.task ?? null, why: folded.why, current: status === 'running' ? folded.current : null, events });
  }
  const result = snapshot.result ? await readResult(session.ctx, snapshot.result, remoteRefs.result(wf), wf) : null;
  const stale = result !== null && result.integration_commit !== snapshot.tip;
  const status = result && !stale ? result.status : tasks.some((t) => t.status === 'running') ? 'running' : tasks.length && tasks.every((t) => t.integrated) ? 'integrated' : 'pending';
  return { workflow_id: wf, remote: session.ctx.remote.given, status, integration_branch: remoteRefs.integration(wf), tip: snapshot.tip, tasks, result, result_stale: stale };
}

export function renderRemoteWorkflow(view: RemoteWorkflowView): string {
  const lines = [`workflow ${view.workflow_id} on ${view.remote}: ${view.status}${view.tip ? ` (${view.integration_branch.replace(/^refs\/heads\//, '')} at ${view.tip.slice(0, 7)})` : ' (no integration branch yet)'}`];
  const width = Math.max(4, ...view.tasks.map((t) => t.id.length));
  for (const t of view.tasks) {
    const s = t.state;
    const extra = s ? `attempt ${s.attempt}, ${s.rounds} round${s.rounds === 1 ? '' : 's'}, $${s.cost_usd.toFixed(2)}${s.cost_known ? '' : '+?'}${s.cas_retries ? `, ${s.cas_retries} CAS retr${s.cas_retries === 1 ? 'y' : 'ies'}` : ''}` : '';
    const now = t.current ? `, now ${t.current.role} in round ${t.current.round}` : '';
    lines.push(`  ${t.id.padEnd(width)}  ${t.status.padEnd(17)}  ${extra}${now}${t.why ? `\n  ${' '.repeat(width)}  ${t.why}` : ''}`);
  }
  if (view.result_stale) lines.push('  (the result was written for an earlier tip: run the final step again)');
  return `${lines.join('\n')}\n`;
}

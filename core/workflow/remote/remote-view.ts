/**
 * A workflow as the remote holds it, read from any clone (`workflow status|show|logs --remote`,
 * the final step, resume): each task's state ref and whether the integration branch holds it,
 * and the result. Every ref is checked (REMOTE_STATE_INVALID names the bad one).
 */
import type { WorkflowEvent } from '../engine/events.ts';
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
  events: WorkflowEvent[];
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
    tasks.push({ id, status: integrated ? 'integrated' : (read?.task.status ?? 'pending'), integrated, state: read?.task ?? null, events: read?.events ?? [] });
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
    lines.push(`  ${t.id.padEnd(width)}  ${t.status.padEnd(17)}  ${extra}`);
  }
  if (view.result_stale) lines.push('  (the result was written for an earlier tip: run the final step again)');
  return `${lines.join('\n')}\n`;
}

/**
 * `workflow task <wf> --final --remote`: the last job. Every task integrated on the remote's
 * branch? Then the plan's final gates run on its tip (the engine's, in a local workflow of this
 * job's with no task, in the workflow's sandbox) and the result is written to
 * `refs/supervisor/result/<wf>` by compare-and-swap. Idempotent: a result already written for
 * this very tip is returned as it is, nothing runs again.
 */
import { EXIT } from '../../errors.ts';
import { remoteErrors } from '../../git/remote-errors.ts';
import type { Workflow } from '../../plugin-api/workflow-model.ts';
import type { WorkflowRunOptions } from '../engine/context.ts';
import { remoteRefs } from './names.ts';
import { readRemoteWorkflow, type RemoteWorkflowView } from './remote-view.ts';
import { writeResult, type RemoteWorkflowResult } from './result-ref.ts';
import type { RemoteSession } from './session.ts';

export interface RemoteFinalInput {
  session: RemoteSession;
  workflow: Workflow;
  engine: Omit<WorkflowRunOptions, 'workflow'>;
}

export interface RemoteFinalResult extends RemoteWorkflowResult {
  remote: string;
  /** The result was there already for this tip: nothing ran. */
  unchanged: boolean;
  /** Tasks not integrated (the workflow is not done). */
  missing: string[];
}

export async function runRemoteFinal(input: RemoteFinalInput): Promise<RemoteFinalResult> {
  const { session, workflow } = input;
  const snapshot = await session.snapshot();
  const view = await readRemoteWorkflow(session, snapshot, workflow.tasks.map((t) => t.id));
  const missing = view.tasks.filter((t) => !t.integrated).map((t) => t.id);
  const tasks: RemoteWorkflowResult['tasks'] = Object.fromEntries(view.tasks.map((t) => [t.id, t.status]));
  if (view.result && !view.result_stale && sameTasks(view.result.tasks, tasks)) return { ...view.result, remote: session.ctx.remote.given, unchanged: true, missing };
  let result: RemoteWorkflowResult;
  if (missing.length) result = notDone(workflow.id, view, tasks);
  else result = await gated(input, view.tip!, tasks);
  await publishResult(session, result, snapshot.result);
  return { ...result, remote: session.ctx.remote.given, unchanged: false, missing };
}

function sameTasks(a: Record<string, string>, b: Record<string, string>): boolean {
  return JSON.stringify(Object.entries(a).sort()) === JSON.stringify(Object.entries(b).sort());
}

function notDone(wf: string, view: RemoteWorkflowView, tasks: RemoteWorkflowResult['tasks']): RemoteWorkflowResult {
  const waiting = view.tasks.some((t) => t.status === 'awaiting_approval');
  const status = waiting ? 'awaiting_approval' : 'gaps';
  return { workflow_id: wf, status, exit_code: waiting ? EXIT.awaitingApproval : EXIT.gaps, integration_commit: view.tip, tasks, gates_passed: null, updated_at: new Date().toISOString() };
}

/** The plan's gates on `tip`, run by the engine (a local workflow of this job's, no task, based on the tip). */
async function gated(input: RemoteFinalInput, tip: string, tasks: RemoteWorkflowResult['tasks']): Promise<RemoteWorkflowResult> {
  const { session, workflow } = input;
  const base: RemoteWorkflowResult = { workflow_id: workflow.id, status: 'pass', exit_code: EXIT.ok, integration_commit: tip, tasks, gates_passed: null, updated_at: new Date().toISOString() };
  if (!workflow.gates.length) return base;
  const { runWorkflow } = await import('../engine/run-workflow.ts');
  const localId = `${workflow.id}-final-${session.token}`;
  const local = await runWorkflow({
    ...input.engine,
    workflow: { ...workflow, id: localId, base: null, tasks: [], source: { ...workflow.source, file: `${workflow.source.file}#${localId}` } },
    base: tip,
  });
  if (local.status === 'interrupted') return { ...base, status: 'interrupted', exit_code: local.exit_code, gates_passed: null };
  const passed = local.gates.passed === true;
  return { ...base, status: passed ? 'pass' : 'gaps', exit_code: passed ? EXIT.ok : EXIT.gaps, gates_passed: passed };
}

/** The result, by compare-and-swap on the value fetched: a final job that raced ours and wrote first is taken over. */
async function publishResult(session: RemoteSession, result: RemoteWorkflowResult, previous: string | null): Promise<void> {
  const ref = remoteRefs.result(session.workflowId);
  let expected = previous;
  for (let tries = 1; ; tries++) {
    const commit = await writeResult(session.ctx, result, expected);
    if ((await session.push([{ ref, next: commit, expected }])).ok) return;
    if (tries >= 4) throw remoteErrors.unreachable(session.ctx.remote.given, `${ref} kept moving under this job's writes (${tries} tries)`);
    expected = await session.fetchOne(ref);
  }
}

/**
 * `workflow task <wf> <task> --remote`: one task of a plan run by one job (a CI job, or a
 * person's clone), integrated into the shared remote by compare-and-swap. The task's rounds are
 * the workflow engine's own (a one-task workflow of this job's, whose base is the remote's tip:
 * same roles, reviewers, sandbox, gates); its merge queue publishes the candidate to the remote
 * (publisher.ts) before its own branch moves. Idempotent: the trailer on the remote's
 * integration branch, not the state ref, says whether the task is integrated.
 */
import { EXIT } from '../../errors.ts';
import type { Workflow } from '../../plugin-api/workflow-model.ts';
import { resolveCommit } from '../../run/start-point.ts';
import type { WorkflowRunOptions } from '../engine/context.ts';
import type { WorkflowResult } from '../engine/result.ts';
import { WorkflowStore } from '../engine/store.ts';
import { remoteWorkflowErrors } from './errors.ts';
import { remoteRefs } from './names.ts';
import { remotePublisher, type PublishCounters } from './publisher.ts';
import type { RemoteSession, RemoteSnapshot } from './session.ts';
import { TaskStateWriter } from './state-writer.ts';
import { reserve, settle } from './ledger-ref.ts';
import { DEFAULT_MIN_RUN_USD } from '../engine/ledger.ts';
import { sumUsd } from '../../money.ts';
import type { WorkflowEvent } from '../engine/events.ts';
import type { RemoteTaskStatus } from './task-state.ts';

export interface RemoteTaskInput {
  session: RemoteSession;
  /** The whole plan (its id is the remote workflow's). */
  workflow: Workflow;
  taskId: string;
  /** The engine's options as the application layer made them (settings, trust, sandbox). */
  engine: Omit<WorkflowRunOptions, 'workflow'>;
  /** Where a missing integration branch starts (default: the plan's base, else HEAD). */
  base?: string;
  maxCasRetries?: number;
}

export interface RemoteTaskResult {
  workflow_id: string;
  task_id: string;
  remote: string;
  /** What this job did: integrated it, found it integrated, or why not. */
  status: RemoteTaskStatus | 'already_integrated';
  exit_code: number;
  integration_branch: string;
  integrated_commit: string | null;
  attempt: number | null;
  cas_retries: number;
  rounds: number;
  cost_usd: number;
  /** This job's own local workflow (its state folder and branches in this clone); null: nothing ran. */
  local_workflow_id: string | null;
  reason: string | null;
}

function oneTaskWorkflow(workflow: Workflow, taskId: string, localId: string): Workflow {
  const task = workflow.tasks.find((t) => t.id === taskId)!;
  // Its own id and source: jobs sharing one clone never share a state folder, lock or branch.
  return { ...workflow, id: localId, base: null, jobs: 1, tasks: [{ ...task, depends_on: [] }], source: { ...workflow.source, file: `${workflow.source.file}#${localId}` } };
}

/** The remote's integration branch, created at `base` when missing (a lease that expects it absent). */
async function ensureIntegration(input: RemoteTaskInput, snapshot: RemoteSnapshot): Promise<RemoteSnapshot> {
  if (snapshot.tip) return snapshot;
  const { session, engine } = input;
  const from = input.base ?? input.workflow.base ?? 'HEAD';
  const base = await resolveCommit(engine.repoRoot, from, input.base !== undefined ? '--base' : input.workflow.base !== null ? "the plan's base" : 'HEAD', engine.env);
  await session.push([{ ref: remoteRefs.integration(session.workflowId), next: base, expected: null }]);
  // Ours or another job's, created meanwhile: read it back either way.
  return session.snapshot();
}

export async function runRemoteTask(input: RemoteTaskInput): Promise<RemoteTaskResult> {
  const { session, workflow, taskId } = input;
  const task = workflow.tasks.find((t) => t.id === taskId);
  if (!task) throw remoteWorkflowErrors.unknownTask(workflow.id, taskId, workflow.tasks.map((t) => t.id));
  const snapshot = await ensureIntegration(input, await session.snapshot());
  const writer = await TaskStateWriter.open(session, taskId, snapshot.states.get(taskId) ?? null);
  const base: RemoteTaskResult = {
    workflow_id: workflow.id,
    task_id: taskId,
    remote: session.ctx.remote.given,
    status: 'already_integrated',
    exit_code: EXIT.ok,
    integration_branch: remoteRefs.integration(workflow.id),
    integrated_commit: null,
    attempt: null,
    cas_retries: 0,
    rounds: 0,
    cost_usd: 0,
    local_workflow_id: null,
    reason: null,
  };
  const landed = snapshot.integrated.get(taskId);
  if (landed) return alreadyIntegrated(base, writer, landed);
  const missing = task.depends_on.filter((d) => !snapshot.integrated.has(d));
  if (missing.length) throw remoteWorkflowErrors.dependencies(workflow.id, taskId, missing);
  if (task.approve && !input.engine.approveAll) {
    await writer.write({ status: 'awaiting_approval' });
    return { ...base, status: 'awaiting_approval', exit_code: EXIT.awaitingApproval, attempt: writer.attempt, reason: approvalHint(workflow.id, taskId, session.ctx.remote.given) };
  }
  return runHere(input, base, writer, snapshot.tip!);
}

/** Integrated already: nothing runs. A state ref a killed job left `running` is set right (the branch is the truth). */
async function alreadyIntegrated(base: RemoteTaskResult, writer: TaskStateWriter, landed: string): Promise<RemoteTaskResult> {
  const previous = writer.previous;
  if (previous?.status !== 'integrated') {
    await writer.write({ status: 'integrated', rounds: previous?.rounds ?? 0, cost_usd: previous?.cost_usd ?? 0, cost_known: previous?.cost_known ?? false, integrated_commit: landed });
  }
  return { ...base, integrated_commit: landed, attempt: previous?.attempt ?? writer.attempt, rounds: previous?.rounds ?? 0, cost_usd: previous?.cost_usd ?? 0, reason: 'integrated already: nothing ran' };
}

function approvalHint(wf: string, task: string, remote: string): string {
  return `task ${task} needs a person's approval, which a CI job cannot give: nothing ran. From a clone, a person runs it and approves as it arrives: supervisor workflow task ${wf} ${task} --remote ${remote} --plan <plan> --approve-all (then re-run this job: it exits 0)`;
}

async function runHere(input: RemoteTaskInput, base: RemoteTaskResult, writer: TaskStateWriter, tip: string): Promise<RemoteTaskResult> {
  const { session, workflow, taskId } = input;
  const localId = `${workflow.id}-job-${session.token}`;
  const counters: PublishCounters = { casRetries: 0, landed: null };
  const ceiling = input.engine.maxCostUsd ?? workflow.max_cost_usd ?? null;
  const share = await reserve(session, taskId, ceiling, workflow.tasks.length, input.engine.minRunUsd ?? DEFAULT_MIN_RUN_USD);
  await writer.write({ status: 'running' });
  const { runWorkflow } = await import('../engine/run-workflow.ts');
  let result: WorkflowResult;
  try {
    result = await runWorkflow({
      ...input.engine,
      workflow: oneTaskWorkflow(workflow, taskId, localId),
      base: tip,
      jobs: 1,
      // The share of the ceiling reserved on the remote is this job's ceiling (ledger-ref.ts).
      ...(share === null ? {} : { maxCostUsd: share }),
      publisher: remotePublisher(session, localId, taskId, counters, input.maxCasRetries),
    });
  } catch (error) {
    const events = localEvents(input, localId);
    await writer.write({ status: 'failed', cas_retries: counters.casRetries, cost_usd: spentIn(events) }, events).catch(() => {});
    if (share !== null) await settle(session, taskId, spentIn(events)).catch(() => {});
    throw error;
  }
  const view = result.tasks[0];
  const status = remoteStatus(result, view?.status);
  const rounds = view?.rounds ?? 0;
  const cost = result.budget.spent_usd;
  const costKnown = result.budget.unknown_cost_runs === 0;
  if (share !== null) await settle(session, taskId, cost);
  const integrated = status === 'integrated' ? (counters.landed ?? (await session.integrationTip())) : null;
  await writer.write({ status, rounds, cost_usd: cost, cost_known: costKnown, integrated_commit: integrated, cas_retries: counters.casRetries }, localEvents(input, localId));
  const exit = status === 'integrated' ? EXIT.ok : result.exit_code === EXIT.ok ? EXIT.gaps : result.exit_code;
  return { ...base, status, exit_code: exit, integrated_commit: integrated, attempt: writer.attempt, cas_retries: counters.casRetries, rounds, cost_usd: cost, local_workflow_id: localId, reason: view?.why ?? result.stop_reason };
}

function remoteStatus(result: WorkflowResult, task: string | undefined): RemoteTaskStatus {
  if (task === 'integrated') return 'integrated';
  if (result.status === 'interrupted') return 'interrupted';
  if (result.status === 'awaiting_approval' || task === 'awaiting_approval') return 'awaiting_approval';
  if (task === 'error') return 'failed';
  return 'gaps';
}

/** What the runs of `events` cost (those that reported a cost). */
function spentIn(events: readonly WorkflowEvent[]): number {
  return sumUsd(events.flatMap((e) => (e.kind === 'run_finished' && typeof e.cost_usd === 'number' ? [e.cost_usd] : [])));
}

/** This job's events (its local workflow's record); none when it could not be read. */
function localEvents(input: RemoteTaskInput, localId: string): WorkflowEvent[] {
  try {
    return new WorkflowStore(input.engine.repoRoot, localId).events();
  } catch {
    return [];
  }
}

/**
 * The workflow tools: `workflow_check`, `workflow_run` and `workflow_resume` (answering with the
 * result, or with `wait: false` with the id at once while the workflow goes on in the server),
 * `workflow_status` and `workflow_show`. Options are turned into engine options by the same
 * function as `workflow run/resume` on the command line.
 */
import { resolve } from 'node:path';
import type { Args } from '../../command/command.ts';
import { engineOptions } from '../../command/workflow-drive.ts';
import { loadWorkflowArg } from '../../command/workflow-arg.ts';
import type { WorkflowRunOptions } from '../../workflow/engine/context.ts';
import { engineErrors } from '../../workflow/engine/errors.ts';
import type { WorkflowResult } from '../../workflow/engine/result.ts';
import { progressReporter, type ToolExtra } from '../progress.ts';
import {
  workflowApproveInput,
  workflowCheckInput,
  workflowCheckOutput,
  workflowIdInput,
  workflowRejectInput,
  workflowResumeInput,
  workflowRunInput,
  workflowRunOutput,
  workflowShowInput,
  workflowShowOutput,
  workflowStatusOutput,
} from '../schemas.ts';
import { defineTool, type ToolEnv } from '../tool.ts';
import { toolResult } from '../tool-result.ts';

type DriveInput = { cli?: string[] | undefined; jobs?: number | undefined; max_cost_usd?: number | undefined; sandbox?: string | undefined; wait?: boolean | undefined };

function driveArgs(input: DriveInput): Args {
  return {
    _: [],
    cli: input.cli ?? [],
    'allow-host': [],
    ...(input.jobs === undefined ? {} : { jobs: input.jobs }),
    ...(input.max_cost_usd === undefined ? {} : { 'max-cost-usd': input.max_cost_usd }),
    ...(input.sandbox === undefined ? {} : { sandbox: input.sandbox }),
  };
}

type Extra = Pick<WorkflowRunOptions, 'signal' | 'onProgress' | 'onNotice' | 'onStart'>;

/** Marks a workflow as running in this server, or refuses when it already is; returns the release. */
function claim(env: ToolEnv, id: string): () => void {
  if (env.runningWorkflows.has(id)) throw engineErrors.busy(id, process.pid);
  env.runningWorkflows.add(id);
  return () => void env.runningWorkflows.delete(id);
}

type Started = { workflow_id: string; branch: string };

/**
 * Starts a workflow in the server. `wait`: the request follows it (progress, cancellation) and
 * gets the result. Otherwise the answer is its id as soon as it has one; it goes on until it
 * ends or the server stops (then it is interrupted, resumable). A resume names its workflow
 * (`resumeId`): claimed before the engine starts, so a second resume of it here is refused.
 */
async function drive(env: ToolEnv, extra: ToolExtra, wait: boolean, start: (extra: Extra) => Promise<WorkflowResult>, resumeId?: string) {
  const { describeProgress } = await import('../../workflow/engine/progress.ts');
  const report = wait ? progressReporter(extra) : () => {};
  let started!: (info: Started) => void;
  const startedOnce = new Promise<Started>((resolve) => (started = resolve));
  let release = resumeId ? claim(env, resumeId) : () => {};
  const callbacks: Extra = {
    onStart: (info) => {
      if (!resumeId) release = claim(env, info.workflow_id);
      env.resourcesMayHaveChanged();
      started(info);
    },
    onProgress: (event) => {
      if (event.state === 'running') env.resourcesMayHaveChanged();
      report(describeProgress(event));
    },
    onNotice: (message) => {
      env.ctx.warn(`notice: ${message}`);
      report(`notice: ${message}`);
    },
  };
  const finish = () => {
    release();
    env.resourcesMayHaveChanged();
  };
  let finished: Promise<WorkflowResult>;
  try {
    finished = env.activity.start((signal) => start({ ...callbacks, signal }).finally(finish), wait ? extra.signal : undefined);
  } catch (error) {
    finish();
    throw error;
  }
  if (wait) return toolResult((await finished) as unknown as Record<string, unknown>);
  // Refused before it started (an unfinished run of the plan, a bad base): that error is the answer.
  const info = await Promise.race([startedOnce, finished.then(() => startedOnce)]);
  finished.catch((error: unknown) => env.ctx.warn(`error: workflow ${info.workflow_id}: ${error instanceof Error ? error.message : String(error)}`));
  return toolResult({ workflow_id: info.workflow_id, status: 'running', branch: info.branch });
}

export const workflowCheck = defineTool({
  name: 'workflow_check',
  title: 'Check a plan',
  description: 'Reads a plan file (workflow YAML, plan markdown, ...) and checks it without running anything: ids, dependencies, cycles, roles, CLIs. Returns the normalised workflow.',
  startsWork: false,
  input: workflowCheckInput,
  output: workflowCheckOutput,
  async call({ file }, _extra, { ctx }) {
    const workflow = await loadWorkflowArg(resolve(ctx.repoRoot, file), ctx);
    return toolResult(workflow as unknown as Record<string, unknown>);
  },
});

export const workflowRun = defineTool({
  name: 'workflow_run',
  title: 'Run a plan',
  description:
    "Runs a plan: each task implemented in its own worktree, reviewed in a loop, merged into the integration branch supervisor/wf/<id> (your checkout is never touched). wait: true (default) answers with the result (status pass | gaps | stopped | interrupted, tasks, branch); wait: false answers with the workflow id at once and the workflow goes on in this server (follow it with workflow_status). A workflow lives only as long as the server: when the client disconnects it is interrupted, resumable with workflow_resume or `supervisor workflow resume`.",
  startsWork: true,
  input: workflowRunInput,
  output: workflowRunOutput,
  async call(input, extra, env) {
    const workflow = await loadWorkflowArg(resolve(env.ctx.repoRoot, input.file), env.ctx);
    const options = await engineOptions(driveArgs(input), env.ctx);
    if (input.base !== undefined) options.base = input.base;
    const { runWorkflow } = await import('../../workflow/engine/run-workflow.ts');
    return drive(env, extra, input.wait !== false, (more) => runWorkflow({ ...options, ...more, workflow }));
  },
});

export const workflowResume = defineTool({
  name: 'workflow_resume',
  title: 'Resume a workflow',
  description: 'Continues a workflow where it stopped (interrupted, killed, stopped at the cost ceiling): integrated tasks never run again; a task caught mid-run restarts from its branch. wait as for workflow_run.',
  startsWork: true,
  input: workflowResumeInput,
  output: workflowRunOutput,
  async call(input, extra, env) {
    const options = await engineOptions(driveArgs(input), env.ctx);
    const { resumeWorkflow } = await import('../../workflow/engine/run-workflow.ts');
    const { resolveWorkflowId } = await import('../../workflow/engine/workflow-id.ts');
    const id = resolveWorkflowId(env.ctx.repoRoot, input.id);
    return drive(env, extra, input.wait !== false, (more) => resumeWorkflow(id, { ...options, ...more }), id);
  },
});

export const workflowStatus = defineTool({
  name: 'workflow_status',
  title: 'Workflow status',
  description: "A workflow's status (pass, gaps, stopped, interrupted; running while it runs; killed when its process died) and each task's state, round, issues and runs.",
  startsWork: false,
  input: workflowIdInput,
  output: workflowStatusOutput,
  async call({ id }, _extra, { ctx }) {
    const { readWorkflowStatus } = await import('../../workflow/engine/status.ts');
    const { resolveWorkflowId } = await import('../../workflow/engine/workflow-id.ts');
    return toolResult(readWorkflowStatus(ctx.repoRoot, resolveWorkflowId(ctx.repoRoot, id)) as unknown as Record<string, unknown>);
  },
});

export const workflowShow = defineTool({
  name: 'workflow_show',
  title: 'Show a workflow',
  description: "A workflow's tasks in detail (or one task's), as `workflow show --json`: the task text, each round's runs (role, CLI, status, cost, run id: read one with runs_show) and the reviewers' issues, gates after its merge, conflicts, approvals, and with diff: true its change.",
  startsWork: false,
  input: workflowShowInput,
  output: workflowShowOutput,
  async call({ id: query, task, diff }, _extra, { ctx }) {
    const { resolveWorkflowId } = await import('../../workflow/engine/workflow-id.ts');
    const { showTask } = await import('../../runs/workflow-show.ts');
    const { readWorkflowStatus } = await import('../../workflow/engine/status.ts');
    const id = resolveWorkflowId(ctx.repoRoot, query);
    const view = readWorkflowStatus(ctx.repoRoot, id);
    const ops = { repoRoot: ctx.repoRoot, env: ctx.deps.env };
    const tasks = [];
    for (const taskId of task === undefined ? view.tasks.map((t) => t.id) : [task]) tasks.push(await showTask(ops, id, taskId, { diff: diff === true }));
    return toolResult({ workflow_id: id, status: view.status, tasks } as unknown as Record<string, unknown>);
  },
});

/** Records approvals or a rejection of tasks held before their merge, then (unless resume: false) continues the workflow as workflow_resume. */
async function decide(decision: 'approved' | 'rejected', input: DriveInput & { id: string; tasks: string[]; issues?: string[] | undefined; resume?: boolean | undefined }, extra: ToolExtra, env: ToolEnv) {
  const { resolveWorkflowId } = await import('../../workflow/engine/workflow-id.ts');
  const { decideTasks, osUser } = await import('../../workflow/engine/approval.ts');
  const id = resolveWorkflowId(env.ctx.repoRoot, input.id);
  const by = osUser(env.ctx.deps.env);
  const options = await engineOptions(driveArgs(input), env.ctx);
  decideTasks(env.ctx.repoRoot, id, input.tasks, { decision, by, issues: input.issues ?? [] });
  env.ctx.warn(`${decision} by ${by}: ${input.tasks.join(', ')} (workflow ${id})`);
  if (input.resume === false) return toolResult({ workflow_id: id, status: 'recorded', decision, by, tasks: input.tasks, issues: input.issues ?? [] });
  const { resumeWorkflow } = await import('../../workflow/engine/run-workflow.ts');
  return drive(env, extra, input.wait !== false, (more) => resumeWorkflow(id, { ...options, ...more }), id);
}

export const workflowApprove = defineTool({
  name: 'workflow_approve',
  title: 'Approve tasks',
  description: 'Approves tasks waiting for approval (approve: true in the plan, workflow status awaiting_approval): they are merged, and the workflow continues (as workflow_resume; wait as for workflow_run) unless resume: false.',
  startsWork: true,
  input: workflowApproveInput,
  output: workflowRunOutput,
  call: (input, extra, env) => decide('approved', input, extra, env),
});

export const workflowReject = defineTool({
  name: 'workflow_reject',
  title: 'Reject tasks',
  description: "Rejects tasks waiting for approval: the issues become the worker's feedback for one more round, and the workflow continues (as workflow_resume) unless resume: false.",
  startsWork: true,
  input: workflowRejectInput,
  output: workflowRunOutput,
  call: (input, extra, env) => decide('rejected', input, extra, env),
});

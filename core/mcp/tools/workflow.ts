/**
 * The workflow tools: `workflow_check`, `workflow_run` and `workflow_resume` (answering with the
 * result, or with `wait: false` with the id at once while the workflow goes on in the server),
 * `workflow_status` and `workflow_show`. Each translates its schema's input into the use case's
 * (core/app), which refuses what the command line refuses, with the same codes.
 */
import { type AppDeps } from '../../app/deps.ts';
import { fromCliContext } from '../../command/app-deps.ts';
import type { DriveInput } from '../../app/workflow-options.ts';
import type { PreparedWorkflow, WorkflowHooks } from '../../app/workflow-run.ts';
import { engineErrors } from '../../workflow/engine/errors.ts';
import type { WorkflowResult } from '../../workflow/engine/result.ts';
import type { CliContext } from '../../command/context.ts';
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

/** A tool's `cli`: one name or a list. */
export function cliList(cli: string | string[] | undefined): string[] {
  return cli === undefined ? [] : typeof cli === 'string' ? [cli] : cli;
}

type DriveToolInput = {
  cli?: string | string[] | undefined;
  jobs?: number | undefined;
  max_cost_usd?: number | undefined;
  sandbox?: string | undefined;
  allow_commands?: string[] | undefined;
  allow_hosts?: string[] | undefined;
  pass_env?: string[] | undefined;
  loosen?: boolean | undefined;
  wait?: boolean | undefined;
};

/** A tool's input → the use cases' DriveInput. */
export function driveInput(input: DriveToolInput): DriveInput {
  return {
    cli: cliList(input.cli),
    ...(input.jobs === undefined ? {} : { jobs: input.jobs }),
    ...(input.max_cost_usd === undefined ? {} : { maxCostUsd: input.max_cost_usd }),
    ...(input.sandbox === undefined ? {} : { sandbox: input.sandbox }),
    allowCommands: input.allow_commands ?? [],
    allowHosts: input.allow_hosts ?? [],
    passEnv: input.pass_env ?? [],
    loosen: input.loosen === true,
  };
}

/** Paths are the repository's; a file outside it is the user's only when the server runs with --trust. */
export function mcpDeps(ctx: CliContext): AppDeps {
  return fromCliContext(ctx, { cwd: ctx.repoRoot, outsideFilesAreUsers: ctx.options.trust === true });
}

/** Marks a workflow as running in this server, or refuses when it already is; returns the release. */
function claim(env: ToolEnv, id: string): () => void {
  if (env.runningWorkflows.has(id)) throw engineErrors.busy(id, process.pid);
  env.runningWorkflows.add(id);
  return () => void env.runningWorkflows.delete(id);
}

type Started = { workflow_id: string; branch: string };

/**
 * Starts a prepared workflow in the server. `wait`: the request follows it (progress,
 * cancellation) and gets the result. Otherwise the answer is its id as soon as it has one; it
 * goes on until it ends or the server stops (then it is interrupted, resumable). A known id
 * (resume, approve, reject) is claimed before the engine starts.
 */
async function drive(env: ToolEnv, extra: ToolExtra, wait: boolean, prepared: PreparedWorkflow) {
  const { describeProgress } = await import('../../workflow/engine/progress.ts');
  const report = wait ? progressReporter(extra) : () => {};
  let started!: (info: Started) => void;
  const startedOnce = new Promise<Started>((resolve) => (started = resolve));
  const known = prepared.workflowId;
  let release = known ? claim(env, known) : () => {};
  const callbacks: WorkflowHooks = {
    onStart: (info) => {
      if (!known) release = claim(env, info.workflow_id);
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
    finished = env.activity.start((signal) => prepared.start({ ...callbacks, signal }).finally(finish), wait ? extra.signal : undefined);
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
  description: 'Reads a plan file (workflow YAML, plan markdown, ...) and checks it without running anything, as `workflow check`: ids, dependencies, cycles, roles, CLIs installed, sandboxes, trust for its commands. Returns the normalised workflow.',
  startsWork: false,
  input: workflowCheckInput,
  output: workflowCheckOutput,
  async call(input, _extra, { ctx }) {
    const { workflowCheck: check } = await import('../../app/workflow-run.ts');
    const { workflow } = await check({ file: input.file, cli: cliList(input.cli), allowCommands: input.allow_commands ?? [], ...(input.sandbox === undefined ? {} : { sandbox: input.sandbox }) }, mcpDeps(ctx));
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
    const { prepareWorkflowRun } = await import('../../app/workflow-run.ts');
    const prepared = await prepareWorkflowRun({ ...driveInput(input), file: input.file, ...(input.base === undefined ? {} : { base: input.base }) }, mcpDeps(env.ctx));
    return drive(env, extra, input.wait !== false, prepared);
  },
});

export const workflowResume = defineTool({
  name: 'workflow_resume',
  title: 'Resume a workflow',
  description: 'Continues a workflow where it stopped (interrupted, killed, stopped at the cost ceiling), with the settings it was started with: integrated tasks never run again; a task caught mid-run restarts from its branch. wait as for workflow_run.',
  startsWork: true,
  input: workflowResumeInput,
  output: workflowRunOutput,
  async call(input, extra, env) {
    const { prepareWorkflowResume } = await import('../../app/workflow-continue.ts');
    const prepared = await prepareWorkflowResume({ ...driveInput(input), id: input.id }, mcpDeps(env.ctx));
    return drive(env, extra, input.wait !== false, prepared);
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
    const { workflowStatus: status } = await import('../../app/workflow-views.ts');
    return toolResult((await status({ id }, mcpDeps(ctx))).read() as unknown as Record<string, unknown>);
  },
});

export const workflowShow = defineTool({
  name: 'workflow_show',
  title: 'Show a workflow',
  description: "A workflow's tasks in detail (or one task's), as `workflow show --json`: the task text, each round's runs (role, CLI, status, cost, run id: read one with runs_show) and the reviewers' issues, gates after its merge, conflicts, approvals, and with diff: true its change.",
  startsWork: false,
  input: workflowShowInput,
  output: workflowShowOutput,
  async call({ id, task, diff }, _extra, { ctx }) {
    const { workflowShow: show } = await import('../../app/workflow-views.ts');
    return toolResult((await show({ id, ...(task === undefined ? {} : { task }), diff: diff === true }, mcpDeps(ctx))) as unknown as Record<string, unknown>);
  },
});

/** Records approvals or a rejection of tasks held before their merge, then (unless resume: false) continues the workflow as workflow_resume. */
async function decide(decision: 'approved' | 'rejected', input: DriveToolInput & { id: string; tasks: string[]; issues?: string[] | undefined; resume?: boolean | undefined }, extra: ToolExtra, env: ToolEnv) {
  const { osUser } = await import('../../workflow/engine/approval.ts');
  const { workflowDecide } = await import('../../app/workflow-continue.ts');
  const decided = await workflowDecide({ ...driveInput(input), id: input.id, tasks: input.tasks, decision, issues: input.issues ?? [], by: osUser(env.ctx.deps.env), resume: input.resume !== false }, mcpDeps(env.ctx));
  env.ctx.warn(`${decision} by ${decided.by}: ${input.tasks.join(', ')} (workflow ${decided.workflow_id})`);
  if (!decided.next) return toolResult({ workflow_id: decided.workflow_id, status: 'recorded', decision, by: decided.by, tasks: input.tasks, issues: decided.issues });
  return drive(env, extra, input.wait !== false, decided.next);
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

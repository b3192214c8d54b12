/**
 * Use cases of a workflow on a shared remote (issue 29): `workflow task <wf> <task> --remote`
 * (one CI job: one task, integrated by compare-and-swap), `--final` (the last job), `workflow
 * resume --remote` (every task not integrated, here, then the final step), and `workflow
 * status|show|logs --remote`. The plan goes through the same refusals, trust and settings as
 * `workflow run` (workflow-run.ts); `--plan-sha256` pins the plan an export was made from.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { errors } from '../errors.ts';
import type { AppDeps } from './deps.ts';
import { refuse, resolvePlan, type Checked, type WorkflowHooks, type WorkflowRunInput } from './workflow-run.ts';
import type { RemoteTaskResult } from '../workflow/remote/run-task.ts';
import type { RemoteFinalResult } from '../workflow/remote/final.ts';
import type { RemoteWorkflowView } from '../workflow/remote/remote-view.ts';
import type { RemoteSession } from '../workflow/remote/session.ts';

export interface RemoteTaskCommandInput extends WorkflowRunInput {
  workflowId: string;
  /** The task to run; absent with `final`. */
  taskId?: string;
  final?: boolean;
  remote: string;
  /** The plan file's bytes must hash to this (sha256, hex): the plan an export was made from. */
  planSha256?: string;
}

export type RemoteHooks = Pick<WorkflowHooks, 'signal' | 'onProgress' | 'onNotice'>;

export interface PreparedRemoteTask {
  workflowId: string;
  taskIds: string[];
  start(hooks: RemoteHooks): Promise<RemoteTaskResult | RemoteFinalResult>;
}

async function openSession(deps: AppDeps, workflowId: string, remote: string): Promise<RemoteSession> {
  const [{ resolveRemote }, { RemoteSession }] = await Promise.all([import('../git/remote.ts'), import('../workflow/remote/session.ts')]);
  const target = await resolveRemote(deps.repoRoot, remote, deps.env);
  return new RemoteSession({ repoRoot: deps.repoRoot, env: deps.env, remote: target }, workflowId);
}

/**
 * The plan as every remote use case takes it: pinned by `--plan-sha256`, the id the workflow's,
 * `check` (the task asked for) passed, and everything `workflow run` refuses refused, before the
 * remote is touched. Loaded once: a use case never reads the plan file again.
 */
async function checkedRemotePlan(input: RemoteTaskCommandInput, deps: AppDeps, check: (workflow: Checked['workflow']) => void = () => {}): Promise<Checked> {
  const { remoteWorkflowErrors } = await import('../workflow/remote/errors.ts');
  if (input.planSha256 !== undefined) {
    const actual = createHash('sha256').update(readFileSync(resolve(deps.cwd, input.file))).digest('hex');
    if (actual !== input.planSha256.trim().toLowerCase()) throw remoteWorkflowErrors.planChanged(input.file, input.planSha256, actual);
  }
  const checked = await resolvePlan(input, deps);
  if (checked.workflow.id !== input.workflowId) throw remoteWorkflowErrors.planMismatch(input.workflowId, checked.workflow.id);
  check(checked.workflow);
  await refuse(checked, deps);
  return checked;
}

/** `--final` on a checked plan: the final gates on the remote's tip, the result written. */
async function runFinal(checked: Checked, input: RemoteTaskCommandInput, deps: AppDeps, hooks: RemoteHooks): Promise<RemoteFinalResult> {
  const session = await openSession(deps, checked.workflow.id, input.remote);
  try {
    const { runRemoteFinal } = await import('../workflow/remote/final.ts');
    return await runRemoteFinal({ session, workflow: checked.workflow, engine: { ...checked.options, ...hooks } });
  } finally {
    await session.close();
  }
}

/** One task of a checked plan, run here and integrated on the remote. */
async function runTask(checked: Checked, taskId: string, input: RemoteTaskCommandInput, deps: AppDeps, hooks: RemoteHooks): Promise<RemoteTaskResult> {
  const session = await openSession(deps, checked.workflow.id, input.remote);
  try {
    const { runRemoteTask } = await import('../workflow/remote/run-task.ts');
    return await runRemoteTask({ session, workflow: checked.workflow, taskId, engine: { ...checked.options, ...hooks }, ...(input.base === undefined ? {} : { base: input.base }) });
  } finally {
    await session.close();
  }
}

/** Everything `workflow run` refuses, refused here before the remote is touched. */
export async function prepareRemoteTask(input: RemoteTaskCommandInput, deps: AppDeps): Promise<PreparedRemoteTask> {
  const { remoteWorkflowErrors } = await import('../workflow/remote/errors.ts');
  const checked = await checkedRemotePlan(input, deps, (workflow) => {
    if (input.final) return;
    if (input.taskId === undefined) throw errors.usage('workflow task needs a task id, or --final');
    if (!workflow.tasks.some((t) => t.id === input.taskId)) throw remoteWorkflowErrors.unknownTask(input.workflowId, input.taskId, workflow.tasks.map((t) => t.id));
  });
  return {
    workflowId: checked.workflow.id,
    taskIds: input.final ? [] : [input.taskId!],
    start: (hooks) => (input.final ? runFinal(checked, input, deps, hooks) : runTask(checked, input.taskId!, input, deps, hooks)),
  };
}

/** `workflow status|show|logs <wf> --remote`: the remote's state of the workflow, from any clone. */
export async function remoteWorkflowView(input: { workflowId: string; remote: string }, deps: AppDeps): Promise<RemoteWorkflowView> {
  const { refSafeId } = await import('../workflow/remote/names.ts');
  if (!refSafeId(input.workflowId)) throw errors.usage(`workflow id "${input.workflowId}" cannot name refs on a remote`);
  const session = await openSession(deps, input.workflowId, input.remote);
  try {
    const { readRemoteWorkflow } = await import('../workflow/remote/remote-view.ts');
    return await readRemoteWorkflow(session, await session.snapshot());
  } finally {
    await session.close();
  }
}

export interface RemoteResumeResult {
  workflow_id: string;
  remote: string;
  /** Each task run here (or found integrated), in the order run. */
  tasks: RemoteTaskResult[];
  /** Tasks not run: a dependency did not integrate here. */
  skipped: string[];
  final: RemoteFinalResult;
  exit_code: number;
}

/** Tasks in dependency order (the plan is a DAG: checked when it was loaded). */
function dependencyOrder(tasks: { id: string; depends_on: string[] }[]): string[] {
  const order: string[] = [];
  const done = new Set<string>();
  while (order.length < tasks.length) {
    const next = tasks.filter((t) => !done.has(t.id) && t.depends_on.every((d) => done.has(d)));
    if (!next.length) break;
    for (const t of next) {
      order.push(t.id);
      done.add(t.id);
    }
  }
  return order;
}

/**
 * `workflow resume <wf> --remote --plan`: here, in dependency order, every task the remote's
 * branch does not hold yet (each as its own job would run it), then the final step.
 */
export async function prepareRemoteResume(input: Omit<RemoteTaskCommandInput, 'taskId' | 'final'>, deps: AppDeps): Promise<{ workflowId: string; taskIds: string[]; start(hooks: RemoteHooks): Promise<RemoteResumeResult> }> {
  const checked = await checkedRemotePlan(input, deps);
  const { workflow } = checked;
  return {
    workflowId: workflow.id,
    taskIds: workflow.tasks.map((t) => t.id),
    async start(hooks) {
      const results: RemoteTaskResult[] = [];
      const failed = new Set<string>();
      const skipped: string[] = [];
      let exit = 0;
      for (const id of dependencyOrder(workflow.tasks)) {
        const task = workflow.tasks.find((t) => t.id === id)!;
        if (task.depends_on.some((d) => failed.has(d)) || hooks.signal?.aborted) {
          failed.add(id);
          skipped.push(id);
          continue;
        }
        const result = await runTask(checked, id, input, deps, hooks);
        results.push(result);
        if (result.exit_code !== 0) {
          failed.add(id);
          if (exit === 0 || exit === 1) exit = result.exit_code;
        }
      }
      const final = await runFinal(checked, input, deps, hooks);
      return { workflow_id: workflow.id, remote: final.remote, tasks: results, skipped, final, exit_code: exit || final.exit_code };
    },
  };
}

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
import { refuse, resolvePlan, type WorkflowHooks, type WorkflowRunInput } from './workflow-run.ts';
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

/** Everything `workflow run` refuses, refused here before the remote is touched. */
export async function prepareRemoteTask(input: RemoteTaskCommandInput, deps: AppDeps): Promise<PreparedRemoteTask> {
  const { remoteWorkflowErrors } = await import('../workflow/remote/errors.ts');
  if (input.planSha256 !== undefined) {
    const actual = createHash('sha256').update(readFileSync(resolve(deps.cwd, input.file))).digest('hex');
    if (actual !== input.planSha256.trim().toLowerCase()) throw remoteWorkflowErrors.planChanged(input.file, input.planSha256, actual);
  }
  const checked = await resolvePlan(input, deps);
  if (checked.workflow.id !== input.workflowId) throw remoteWorkflowErrors.planMismatch(input.workflowId, checked.workflow.id);
  if (!input.final) {
    if (input.taskId === undefined) throw errors.usage('workflow task needs a task id, or --final');
    if (!checked.workflow.tasks.some((t) => t.id === input.taskId)) throw remoteWorkflowErrors.unknownTask(input.workflowId, input.taskId, checked.workflow.tasks.map((t) => t.id));
  }
  await refuse(checked, deps);
  const { workflow, options } = checked;
  return {
    workflowId: workflow.id,
    taskIds: input.final ? [] : [input.taskId!],
    async start(hooks) {
      const session = await openSession(deps, workflow.id, input.remote);
      const engine = { ...options, ...hooks };
      try {
        if (input.final) {
          const { runRemoteFinal } = await import('../workflow/remote/final.ts');
          return await runRemoteFinal({ session, workflow, engine });
        }
        const { runRemoteTask } = await import('../workflow/remote/run-task.ts');
        return await runRemoteTask({ session, workflow, taskId: input.taskId!, engine, ...(input.base === undefined ? {} : { base: input.base }) });
      } finally {
        await session.close();
      }
    },
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
  const prepared = await prepareRemoteTask({ ...input, final: true }, deps);
  const checked = await resolvePlan(input, deps);
  const { workflow, options } = checked;
  return {
    workflowId: workflow.id,
    taskIds: workflow.tasks.map((t) => t.id),
    async start(hooks) {
      const { runRemoteTask } = await import('../workflow/remote/run-task.ts');
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
        const session = await openSession(deps, workflow.id, input.remote);
        try {
          const result = await runRemoteTask({ session, workflow, taskId: id, engine: { ...options, ...hooks }, ...(input.base === undefined ? {} : { base: input.base }) });
          results.push(result);
          if (result.exit_code !== 0) {
            failed.add(id);
            if (exit === 0 || exit === 1) exit = result.exit_code;
          }
        } finally {
          await session.close();
        }
      }
      const final = (await prepared.start(hooks)) as RemoteFinalResult;
      return { workflow_id: workflow.id, remote: final.remote, tasks: results, skipped, final, exit_code: exit || final.exit_code };
    },
  };
}

/**
 * The read-side workflow use cases (status, show, list, finish): one function each, shared by
 * the command line and MCP, each naming its workflow the same way (an id, a unique part, `last`,
 * or none: the newest).
 */
import type { AppDeps } from './deps.ts';

async function resolveId(query: string | undefined, deps: AppDeps): Promise<string> {
  const { resolveWorkflowId } = await import('../workflow/engine/workflow-id.ts');
  return resolveWorkflowId(deps.repoRoot, query);
}

export async function workflowStatus(input: { id?: string }, deps: AppDeps) {
  const { readWorkflowStatus } = await import('../workflow/engine/status.ts');
  const id = await resolveId(input.id, deps);
  return { id, read: () => readWorkflowStatus(deps.repoRoot, id) };
}

export async function workflowList(deps: AppDeps) {
  const { listWorkflows } = await import('../workflow/engine/status.ts');
  return listWorkflows(deps.repoRoot);
}

/** One task, or (no task) every task of the workflow, as `workflow show --json`. */
export async function workflowShow(input: { id?: string; task?: string; diff?: boolean }, deps: AppDeps) {
  const { showTask } = await import('../runs/workflow-show.ts');
  const { readWorkflowStatus } = await import('../workflow/engine/status.ts');
  const id = await resolveId(input.id, deps);
  const view = readWorkflowStatus(deps.repoRoot, id);
  const ops = { repoRoot: deps.repoRoot, env: deps.env };
  const tasks = [];
  for (const taskId of input.task === undefined ? view.tasks.map((t) => t.id) : [input.task]) tasks.push(await showTask(ops, id, taskId, { diff: input.diff === true }));
  return { workflow_id: id, status: view.status, tasks };
}

export async function workflowFinish(input: { id?: string; into?: string; squash?: boolean }, deps: AppDeps) {
  const { finishWorkflow } = await import('../workflow/engine/finish.ts');
  const id = await resolveId(input.id, deps);
  return finishWorkflow({ repoRoot: deps.repoRoot, env: deps.env }, id, { ...(input.into === undefined ? {} : { into: input.into }), squash: input.squash === true });
}

/** One task for `workflow show <id> <task>`: its text, rounds, issues, gates, decisions, change. */
export async function workflowShowTask(input: { id: string; task: string; diff?: boolean }, deps: AppDeps) {
  const { showTask } = await import('../runs/workflow-show.ts');
  const id = await resolveId(input.id, deps);
  return showTask({ repoRoot: deps.repoRoot, env: deps.env }, id, input.task, input.diff === undefined ? {} : { diff: input.diff });
}

/**
 * The output of a workflow's runs, interleaved, each line tagged with task and role (only one
 * task's with `task`, refused when the plan has no such task); `width` fits the widest tag.
 */
export async function workflowLogs(input: { id?: string; task?: string }, deps: AppDeps) {
  const { WorkflowLogFollower } = await import('../runs/workflow-logs.ts');
  const { WorkflowStore } = await import('../workflow/engine/store.ts');
  const { engineErrors } = await import('../workflow/engine/errors.ts');
  const { describeLoggedEvent } = await import('../runs/render.ts');
  const id = await resolveId(input.id, deps);
  const plan = new WorkflowStore(deps.repoRoot, id).plan();
  const tasks = plan.tasks.map((t) => t.id);
  if (input.task !== undefined && !tasks.includes(input.task)) throw engineErrors.taskNotFound(id, input.task, tasks);
  const follower = new WorkflowLogFollower(deps.repoRoot, id, { ...(input.task === undefined ? {} : { task: input.task }), describe: (item) => describeLoggedEvent(item.event) || null });
  const width = Math.min(48, Math.max(...plan.tasks.map((t) => t.id.length + Math.max(t.worker.length, ...t.reviewers.map((r) => r.length)) + 3)));
  return { id, follower, width };
}

/**
 * `workflow_show`: a workflow's tasks in detail, read from its state folder: each task's text,
 * its rounds with the runs of each (worker and reviewers) and the issues it holds now. Until
 * the `workflow show` command exists this is the MCP server's own small reading of the events.
 */
import { readWorkflowStatus } from '../workflow/engine/status.ts';
import { WorkflowStore } from '../workflow/engine/store.ts';
import { mcpErrors } from './errors.ts';

export interface ShownRun {
  run_id: string;
  role: string;
  status: string;
  exit_code: number | null;
  cost_usd: number | null;
}

export interface ShownTask {
  id: string;
  title: string;
  task: string;
  worker: string;
  reviewers: string[];
  depends_on: string[];
  status: string;
  issues: string[];
  rounds: { round: number; runs: ShownRun[] }[];
}

export interface WorkflowShow {
  workflow_id: string;
  name: string;
  status: string;
  branch: string | null;
  tasks: ShownTask[];
}

export function showWorkflow(repoRoot: string, id: string, only?: string): WorkflowShow {
  const view = readWorkflowStatus(repoRoot, id);
  const plan = new WorkflowStore(repoRoot, id).plan();
  if (only !== undefined && !plan.tasks.some((t) => t.id === only)) throw mcpErrors.taskNotFound(id, only, plan.tasks.map((t) => t.id));
  const rounds = new Map<string, Map<number, ShownRun[]>>();
  for (const event of new WorkflowStore(repoRoot, id).events()) {
    if (event.kind !== 'run_finished' || typeof event.task !== 'string' || typeof event.run_id !== 'string') continue;
    const byRound = rounds.get(event.task) ?? new Map<number, ShownRun[]>();
    rounds.set(event.task, byRound);
    const round = Number(event.round);
    const run: ShownRun = {
      run_id: event.run_id,
      role: String(event.role),
      status: String(event.status),
      exit_code: typeof event.exit_code === 'number' ? event.exit_code : null,
      cost_usd: typeof event.cost_usd === 'number' ? event.cost_usd : null,
    };
    byRound.set(round, [...(byRound.get(round) ?? []), run]);
  }
  const states = new Map(view.tasks.map((t) => [t.id, t]));
  const tasks = plan.tasks
    .filter((t) => only === undefined || t.id === only)
    .map((t) => ({
      id: t.id,
      title: t.title,
      task: t.task,
      worker: t.worker,
      reviewers: t.reviewers,
      depends_on: t.depends_on,
      status: states.get(t.id)?.status ?? 'pending',
      issues: states.get(t.id)?.issues ?? [],
      rounds: [...(rounds.get(t.id) ?? new Map<number, ShownRun[]>()).entries()].sort(([a], [b]) => a - b).map(([round, runs]) => ({ round, runs })),
    }));
  return { workflow_id: id, name: view.name, status: view.status, branch: view.branch, tasks };
}

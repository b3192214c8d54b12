/**
 * `workflow status` and `workflow list`: what the state folder says. A finished (or stopped)
 * workflow shows its result.json; one running now, or killed outright (no result since its
 * last start), shows its tasks' last states from events.jsonl.
 */
import { existsSync } from 'node:fs';
import { isSupervisorError } from '../../errors.ts';
import { engineErrors } from './errors.ts';
import type { WorkflowSummary } from './render.ts';
import { listWorkflowIds, WorkflowStore, type WorkflowEvent } from './store.ts';

export interface WorkflowStatusView {
  workflow_id: string;
  name: string;
  /** pass | gaps | stopped | interrupted (a result), running (its process is alive), killed (no result, process gone: resumable). */
  status: string;
  file: string;
  branch: string | null;
  started_at: string | null;
  tasks: { id: string; status: string; round: number; issues: string[]; runs: string[] }[];
  cost_usd: number;
}

function lastFinished(events: WorkflowEvent[]): boolean {
  for (let i = events.length - 1; i >= 0; i--) {
    const kind = events[i]!.kind;
    if (kind === 'workflow_finished') return true;
    if (kind === 'workflow_started' || kind === 'workflow_resumed') return false;
  }
  return false;
}

export function readWorkflowStatus(repoRoot: string, id: string): WorkflowStatusView {
  const store = new WorkflowStore(repoRoot, id);
  if (!store.exists()) throw engineErrors.notFound(id, listWorkflowIds(repoRoot));
  const plan = store.plan();
  const owner = store.owner();
  // Its owner may be between writing plan.json and its first event; otherwise no events is corruption.
  const events = owner && !existsSync(store.eventsFile) ? [] : store.events();
  const started = events.find((e) => e.kind === 'workflow_started');
  const tasks = new Map(plan.tasks.map((t) => [t.id, { id: t.id, status: 'pending', round: 0, issues: [] as string[], runs: [] as string[] }]));
  let cost = 0;
  for (const e of events) {
    const task = typeof e.task === 'string' ? tasks.get(e.task) : undefined;
    if (!task) continue;
    if (e.kind === 'task_state') {
      task.status = String(e.state);
      task.round = typeof e.round === 'number' ? e.round : task.round;
      task.issues = Array.isArray(e.issues) ? (e.issues as string[]) : [];
    } else if (e.kind === 'run_finished' && typeof e.run_id === 'string') {
      task.runs.push(e.run_id);
      cost += typeof e.cost_usd === 'number' ? e.cost_usd : 0;
    }
  }
  const result = store.result();
  let status: string;
  if (owner) status = 'running';
  else if (lastFinished(events) && result) status = result.status;
  else status = 'killed';
  return {
    workflow_id: id,
    name: plan.name,
    status,
    file: plan.source.file,
    branch: typeof started?.branch === 'string' ? started.branch : null,
    started_at: started?.ts ?? null,
    tasks: [...tasks.values()],
    cost_usd: cost,
  };
}

/** Every workflow's summary; one whose state cannot be read is listed as `corrupt` with the file and the problem. */
export function listWorkflows(repoRoot: string): WorkflowSummary[] {
  return listWorkflowIds(repoRoot).map((id) => {
    let view: WorkflowStatusView;
    try {
      view = readWorkflowStatus(repoRoot, id);
    } catch (error) {
      if (!isSupervisorError(error) || error.code !== 'WORKFLOW_CORRUPT') throw error;
      const { file, problem } = error.details as { file: string; problem: string };
      return { workflow_id: id, name: '', status: 'corrupt', file: '', started_at: null, tasks: {}, corrupt: { file, problem } };
    }
    const counts: Record<string, number> = {};
    for (const t of view.tasks) counts[t.status] = (counts[t.status] ?? 0) + 1;
    return { workflow_id: id, name: view.name, status: view.status, file: view.file, started_at: view.started_at, tasks: counts };
  });
}

export function renderWorkflowStatus(view: WorkflowStatusView): string {
  const lines = [`workflow ${view.workflow_id}: ${view.status}  (${view.file})`, `branch: ${view.branch ?? '-'}  cost: $${view.cost_usd.toFixed(4)}`];
  for (const t of view.tasks) {
    lines.push(`  ${t.status.padEnd(11)} ${t.id}  round ${t.round}  runs ${t.runs.length}`);
    for (const issue of t.issues.slice(0, 3)) lines.push(`              - ${issue}`);
  }
  if (view.status === 'killed' || view.status === 'interrupted' || view.status === 'stopped') lines.push(`Resume with: supervisor workflow resume ${view.workflow_id}`);
  return `${lines.join('\n')}\n`;
}

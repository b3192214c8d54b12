/**
 * `workflow status` and `workflow list`: what the state folder says. A finished (or stopped)
 * workflow shows its result.json; one running now, or killed outright (no result since its
 * last start), shows its tasks' last states from events.jsonl.
 */
import { existsSync } from 'node:fs';
import { isSupervisorError } from '../../errors.ts';
import { engineErrors } from './errors.ts';
import type { WorkflowSummary } from './render.ts';
import { formatUsd } from '../../money.ts';
import { shortRunId } from './short-ids.ts';
import { foldEvents } from './state.ts';
import { listWorkflowIds, WorkflowStore } from './store.ts';
import { sumMetrics, taskViewsOf, type WorkflowMetrics, type WorkflowTaskView } from './task-view.ts';

export interface WorkflowStatusView {
  workflow_id: string;
  name: string;
  /** pass | gaps | stopped | interrupted (a result), running (its process is alive), killed (no result, process gone: resumable). */
  status: string;
  file: string;
  branch: string | null;
  started_at: string | null;
  /** The same task shape as the result's (task-view.ts). */
  tasks: WorkflowTaskView[];
  metrics: WorkflowMetrics;
}

export function readWorkflowStatus(repoRoot: string, id: string): WorkflowStatusView {
  const store = new WorkflowStore(repoRoot, id);
  if (!store.exists()) throw engineErrors.notFound(id, listWorkflowIds(repoRoot));
  const plan = store.plan();
  const owner = store.owner();
  // Its owner may be between writing plan.json and its first event; otherwise no events is corruption.
  const events = owner && !existsSync(store.eventsFile) ? [] : store.events();
  const state = foldEvents(plan, events);
  const tasks = taskViewsOf(plan, state);
  const result = store.result();
  let status: string;
  if (owner) status = 'running';
  else if (state.finished && result) status = result.status;
  else status = 'killed';
  return {
    workflow_id: id,
    name: plan.name,
    status,
    file: plan.source.file,
    branch: state.settings.branch,
    started_at: state.started_at,
    tasks,
    metrics: sumMetrics(tasks),
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

/** What a task is doing, for a person: `running worker (claude) round 2, run 20261125-…-a1b2c3`. */
function doing(t: WorkflowTaskView): string {
  if (!t.current) return `round ${t.rounds}`;
  const c = t.current;
  return `${c.role}${c.cli ? ` (${c.cli})` : ''} round ${c.round}${c.run_id ? `, run ${shortRunId(c.run_id)}` : ''}`;
}

export function renderWorkflowStatus(view: WorkflowStatusView): string {
  const cost = `${formatUsd(view.metrics.cost_usd)}${view.metrics.cost_known ? '' : ' (at least)'}`;
  const lines = [`workflow ${view.workflow_id}: ${view.status}  (${view.file})`, `branch: ${view.branch ?? '-'}  cost: ${cost} over ${view.metrics.runs} runs`];
  const width = Math.max(...view.tasks.map((t) => t.id.length));
  for (const t of view.tasks) {
    lines.push(`  ${t.status.padEnd(17)} ${t.id.padEnd(width)}  ${doing(t)}  runs ${t.runs.length}  ${formatUsd(t.metrics.cost_usd)}`);
    const why = t.issues.length ? t.issues.slice(0, 3) : t.why && t.status !== 'integrated' && t.status !== 'running' ? [t.why] : [];
    for (const issue of why) lines.push(`${' '.repeat(20)}- ${issue}`);
  }
  if (view.status === 'killed' || view.status === 'interrupted' || view.status === 'stopped') lines.push(`Resume with: supervisor workflow resume ${view.workflow_id}`);
  return `${lines.join('\n')}\n`;
}

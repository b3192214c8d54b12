/** Human text for workflow results, status and the list (stdout without --json). */
import { formatUsd } from '../../money.ts';
import type { WorkflowResult } from './result.ts';
import { shortRange } from './short-ids.ts';

function money(n: number, known: boolean): string {
  return `${formatUsd(n)}${known ? '' : ' (at least; some CLIs report no cost)'}`;
}

export function renderWorkflowResult(result: WorkflowResult): string {
  const lines = [`workflow ${result.workflow_id}: ${result.status} (exit ${result.exit_code})`, `branch: ${result.branch}  (${shortRange(result.git_range)})`];
  for (const task of result.tasks) {
    lines.push(`  ${task.status.padEnd(11)} ${task.id}  rounds ${task.rounds}  ${money(task.metrics.cost_usd, task.metrics.cost_known)}  ${task.branch}`);
    for (const issue of task.issues.slice(0, 5)) lines.push(`              - ${issue}`);
  }
  if (result.gates.passed === false) lines.push(`gate failed on the integration branch: ${result.gates.failed}`);
  lines.push(`cost: ${money(result.metrics.cost_usd, result.metrics.cost_known)} over ${result.metrics.runs} runs`);
  if (result.status === 'pass') lines.push(`Hand it on when satisfied: supervisor workflow finish ${result.workflow_id} --into <branch>   (or: git merge ${result.branch})`);
  if (result.status === 'awaiting_approval') {
    const waiting = result.tasks.filter((t) => t.status === 'awaiting_approval').map((t) => t.id);
    lines.push(`Waiting for your approval: ${waiting.join(', ')} (see: supervisor workflow show ${result.workflow_id} ${waiting[0]} --diff)`);
    lines.push(`  supervisor workflow approve ${result.workflow_id} ${waiting.join(' ')}`);
    lines.push(`  supervisor workflow reject ${result.workflow_id} ${waiting[0]} --issues "<what to fix>"`);
  }
  if (result.status === 'interrupted' || result.status === 'stopped') lines.push(`Resume with: supervisor workflow resume ${result.workflow_id}`);
  if (result.status === 'gaps') lines.push(`Retry the tasks that were not integrated: supervisor workflow retry ${result.workflow_id}   (see why first: supervisor workflow show ${result.workflow_id} <task>)`);
  return `${lines.join('\n')}\n`;
}

export interface WorkflowSummary {
  workflow_id: string;
  name: string;
  status: string;
  file: string;
  started_at: string | null;
  tasks: Record<string, number>;
  /** Only for status `corrupt`: the state file that cannot be read back and what is wrong with it. */
  corrupt?: { file: string; problem: string };
}

export function renderWorkflowList(items: WorkflowSummary[]): string {
  if (!items.length) return 'No workflows in this repository yet.\n';
  const line = (w: WorkflowSummary) =>
    w.corrupt
      ? `${w.workflow_id}  ${w.status.padEnd(11)} ${w.corrupt.file}: ${w.corrupt.problem}`
      : `${w.workflow_id}  ${w.status.padEnd(11)} ${w.started_at ?? '-'}  ${Object.entries(w.tasks).map(([s, n]) => `${n} ${s}`).join(', ')}`;
  return `${items.map(line).join('\n')}\n`;
}

/** Human text of `workflow show`: one task, round by round, then (with --diff) its change. */
import { formatUsd } from '../money.ts';
import { sanitizeTerminal } from '../text/sanitize-terminal.ts';
import { shortCommit, shortRange, shortRunId } from '../workflow/engine/short-ids.ts';
import type { TaskShow } from './workflow-show.ts';

function seconds(ms: number): string {
  const s = Math.round(ms / 100) / 10;
  return s >= 60 ? `${Math.floor(s / 60)}m${String(Math.round(s % 60)).padStart(2, '0')}s` : `${s}s`;
}

export function renderTaskShow(show: TaskShow, withDiff: boolean): string {
  const clean = sanitizeTerminal;
  const lines = [
    `task ${show.id} of workflow ${show.workflow_id}: ${show.status}${show.why && show.status !== 'running' ? ` (${clean(show.why)})` : ''}`,
    `title: ${clean(show.title)}`,
    `branch: ${show.branch}${show.depends_on.length ? `  after: ${show.depends_on.join(', ')}` : ''}`,
    `roles: ${show.worker} → ${show.reviewers.join(' → ') || '(no review)'}${show.approve ? '; approval required' : ''}`,
    `cost: ${formatUsd(show.metrics.cost_usd)}${show.metrics.cost_known ? '' : ' (at least)'} over ${show.metrics.runs} runs`,
    '',
    ...clean(show.task.trim()).split('\n').map((l) => `  │ ${l}`),
  ];
  for (const round of show.round_details) {
    lines.push('', `round ${round.round}:`);
    for (const run of round.runs) {
      lines.push(`  ${run.role.padEnd(22)} ${(run.cli ?? '-').padEnd(8)} ${run.status.padEnd(6)} ${(run.cost_usd === null ? '-' : formatUsd(run.cost_usd)).padEnd(8)} ${seconds(run.duration_ms).padEnd(7)} ${shortRunId(run.run_id)}`);
    }
    for (const { role, issues } of round.issues) for (const issue of issues) lines.push(`    - [${role}] ${clean(issue)}`);
  }
  if (show.current) lines.push('', `running now: ${show.current.role} round ${show.current.round}${show.current.run_id ? ` (supervisor runs tail -f ${shortRunId(show.current.run_id)})` : ''}`);
  for (const c of show.conflicts) lines.push('', `conflict with the integration branch at ${shortCommit(c.tip)} in: ${c.files.map(clean).join(', ')}`);
  for (const g of show.gates) {
    lines.push('', `gate \`${clean(g.command)}\` on ${shortCommit(g.tip)}: ${g.passed ? 'passed' : `failed (exit ${g.exit_code ?? '-'})`}`);
    if (g.output_tail) lines.push(...clean(g.output_tail.trimEnd()).split('\n').slice(-24).map((l) => `  │ ${l}`));
  }
  for (const a of show.approvals) lines.push('', `${a.decision} by ${clean(a.by)} at ${a.at}${a.issues.length ? `:\n${a.issues.map((i) => `    - ${clean(i)}`).join('\n')}` : ''}`);
  if (show.issues.length && show.status !== 'integrated') lines.push('', 'issues:', ...show.issues.map((i) => `  - ${clean(i)}`));
  if (withDiff && show.diff) {
    lines.push('', `change ${shortRange(show.diff.range)}:`, '', clean(show.diff.text).trimEnd());
  } else if (!withDiff && show.diff) {
    lines.push('', `change ${shortRange(show.diff.range)} (${show.diff.bytes} bytes): add --diff to see it`);
  }
  return `${lines.join('\n')}\n`;
}

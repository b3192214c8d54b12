/** The text `workflow check` prints: the normalised plan at a glance. */
import { relative } from 'node:path';
import { renderTable } from '../text/table.ts';
import type { Workflow } from '../plugin-api/workflow-model.ts';

const list = (items: readonly string[], empty = '-') => (items.length ? items.join(', ') : empty);

export function renderWorkflowSummary(workflow: Workflow, cwd: string): string {
  const file = relative(cwd, workflow.source.file) || workflow.source.file;
  const d = workflow.defaults;
  const header = [
    `ok: ${file} (read by ${workflow.source.reader}): ${workflow.tasks.length} task${workflow.tasks.length === 1 ? '' : 's'}`,
    `workflow: ${workflow.id}  "${workflow.name}"`,
    `base: ${workflow.base ?? 'HEAD'}   jobs: ${workflow.jobs ?? 'default'}   max cost: ${workflow.max_cost_usd === null ? 'none' : `$${workflow.max_cost_usd}`}   gates: ${list(workflow.gates, 'none')}`,
    `defaults: worker ${d.worker}, reviewers ${list(d.reviewers, 'none')}, cli ${d.cli ?? "the role's"}, model ${d.model ?? "the role's"}, max rounds ${d.max_rounds}`,
    '',
  ];
  const rows = workflow.tasks.map((t) => [t.id, list(t.depends_on), t.worker, list(t.reviewers, 'none'), t.cli ?? 'role', t.model ?? '-', String(t.max_rounds), t.title]);
  return [...header, renderTable(['TASK', 'DEPENDS ON', 'WORKER', 'REVIEWERS', 'CLI', 'MODEL', 'ROUNDS', 'TITLE'], rows)].join('\n');
}

/** The one task shape status and the result share, folded from events. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { WorkflowEvent } from '../../../../core/workflow/engine/store.ts';
import { sumMetrics, taskViews } from '../../../../core/workflow/engine/task-view.ts';
import { task, workflow } from './_workflow.ts';

const ev = (kind: WorkflowEvent['kind'], data: Record<string, unknown>, ts = '2026-11-25T10:00:00.000Z'): WorkflowEvent => ({ ts, kind, ...data }) as WorkflowEvent;

describe('taskViews', () => {
  const plan = workflow([task('a'), task('b', { depends_on: ['a'] })]);

  it('a running task names its run in progress: role, run id, round, cli, start', () => {
    const [a] = taskViews(plan, [
      ev('task_state', { task: 'a', state: 'pending', round: 0 }),
      ev('task_state', { task: 'a', state: 'running', round: 1, role: 'worker' }),
      ev('run_started', { task: 'a', role: 'worker', round: 1, run_id: 'r1', cli: 'claude' }, '2026-11-25T10:00:01.000Z'),
    ]);
    assert.deepEqual(a!.current, { role: 'worker', run_id: 'r1', round: 1, cli: 'claude', started_at: '2026-11-25T10:00:01.000Z' });
    assert.equal(a!.status, 'running');
    assert.deepEqual(Object.keys(a!).sort(), ['branch', 'current', 'depends_on', 'id', 'issues', 'metrics', 'rounds', 'runs', 'status', 'title', 'why']);
  });

  it('sums costs without float noise, keeps the runs as objects, and gives the last reason as why', () => {
    const [a, b] = taskViews(plan, [
      ev('task_state', { task: 'a', state: 'running', round: 1 }),
      ev('run_started', { task: 'a', role: 'worker', round: 1, run_id: 'r1', cli: 'claude' }),
      ev('run_finished', { task: 'a', role: 'worker', round: 1, run_id: 'r1', status: 'pass', exit_code: 0, cost_usd: 0.1, input_tokens: 10, output_tokens: 2, duration_ms: 5 }),
      ev('run_started', { task: 'a', role: 'spec-reviewer', round: 1, run_id: 'r2', cli: 'codex' }),
      ev('run_finished', { task: 'a', role: 'spec-reviewer', round: 1, run_id: 'r2', status: 'pass', exit_code: 0, cost_usd: 0.0599, duration_ms: 7 }),
      ev('task_state', { task: 'a', state: 'integrated', round: 1, reason: 'merged' }),
      ev('task_state', { task: 'b', state: 'skipped', round: 0, reason: 'skipped: a', issues: ['skipped: a'] }),
    ]);
    assert.equal(a!.metrics.cost_usd, 0.1599);
    assert.equal(a!.metrics.runs, 2);
    assert.equal(a!.current, null);
    assert.deepEqual(a!.runs.map((r) => [r.run_id, r.role, r.cli]), [['r1', 'worker', 'claude'], ['r2', 'spec-reviewer', 'codex']]);
    assert.equal(a!.why, 'merged');
    assert.equal(a!.rounds, 1);
    assert.deepEqual(b!.depends_on, ['a']);
    assert.equal(b!.branch, 'supervisor/wf/wf-test--b');
    assert.equal(sumMetrics([a!, b!]).cost_usd, 0.1599);
  });
});

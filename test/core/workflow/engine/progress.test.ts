import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createProgressView } from '../../../../core/workflow/engine/progress.ts';

describe('workflow progress on stderr', () => {
  it('not a terminal: one line per state change', () => {
    let out = '';
    const view = createProgressView((t) => (out += t), false, ['a']);
    view.update({ task: 'a', state: 'running', round: 2, role: 'spec-reviewer', cli: 'codex', cost_usd: 0 });
    view.update({ task: 'a', state: 'gaps', round: 3, cost_usd: 0.5, reason: '[spec-reviewer] missing tests' });
    view.stop();
    assert.equal(out, 'workflow: a: running spec-reviewer (codex), round 2\nworkflow: a: gaps — [spec-reviewer] missing tests\n');
  });

  it('a terminal: a table of task, state, round, CLI, cost and elapsed, redrawn in place', () => {
    let out = '';
    let now = 1_000;
    const view = createProgressView((t) => (out += t), true, ['a', 'b'], () => now);
    view.update({ task: 'a', state: 'running', round: 1, role: 'worker', cli: 'claude', cost_usd: 0 });
    now = 66_000;
    view.note('notice: something to know');
    view.update({ task: 'a', state: 'integrated', round: 1, cost_usd: 0.25 });
    view.stop();
    assert.match(out, /\x1b\[3A\x1b\[0Jnotice: something to know\nTASK/, 'a note goes above the table, which is drawn again');
    const frames = out.split('\x1b[0J');
    const last = frames.at(-1)!;
    assert.match(last, /^TASK\s+STATE\s+ROUND\s+CLI\s+COST\s+ELAPSED$/m);
    assert.match(last, /^a\s+integrated\s+1\s+claude\s+\$0\.2500\s+1m05s$/m);
    assert.match(last, /^b\s+pending\s+-\s+-\s+\$0\.0000\s+-$/m);
    assert.ok(out.includes('\x1b[3A'), 'moves up over the previous table before redrawing');
  });
});

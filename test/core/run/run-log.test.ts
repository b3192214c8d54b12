import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { RunLog } from '../../../core/run/run-log.ts';
import { listRuns, readRun, resolveRunId } from '../../../core/runs/runs-store.ts';
import { tempDir } from '../../helpers/git-repo.ts';

describe('run log', () => {
  it('appends one JSON line per event, on disk as soon as it is recorded', async () => {
    const dir = join(await tempDir(), 'run');
    const seen: string[] = [];
    const log = new RunLog(dir, () => new Date('2026-01-01T00:00:00Z'), (e) => seen.push(e.kind));
    log.event('run_started', { role: 'r' });
    assert.equal(readFileSync(join(dir, 'events.jsonl'), 'utf8'), '{"ts":"2026-01-01T00:00:00.000Z","kind":"run_started","role":"r"}\n');
    log.event('attempt_started', { attempt: 1 });
    assert.equal(readFileSync(join(dir, 'events.jsonl'), 'utf8').split('\n').length, 3);
    assert.deepEqual(seen, ['run_started', 'attempt_started']);
    log.write('prompt.md', 'hello');
    assert.equal(readFileSync(join(dir, 'prompt.md'), 'utf8'), 'hello');
  });
});

describe('runs store', () => {
  it('lists runs newest first and tells running, cut-short and finished runs apart', async () => {
    const repo = await tempDir();
    const runs = join(repo, '.supervisor/runs');
    const a = new RunLog(join(runs, '20260101-000000-planner-aaaaaa'), () => new Date('2026-01-01T00:00:00Z'));
    a.event('run_started', { role: 'planner', cli: 'codex', pid: 999_999_999 });
    a.event('attempt_started', { attempt: 1 });
    const b = new RunLog(join(runs, '20260102-000000-reviewer-bbbbbb'), () => new Date('2026-01-02T00:00:00Z'));
    b.event('run_started', { role: 'reviewer', cli: 'claude', pid: process.pid });
    const c = new RunLog(join(runs, '20260103-000000-implementer-cccccc'), () => new Date('2026-01-03T00:00:00Z'));
    c.event('run_started', { role: 'implementer', cli: 'claude', pid: process.pid });
    c.write('result.json', JSON.stringify({
      run_id: '20260103-000000-implementer-cccccc', role: 'implementer', cli: 'claude', status: 'pass', exit_code: 0, started_at: '2026-01-03T00:00:00.000Z',
      metrics: { attempts: 2, input_tokens: 5, output_tokens: 6, cost_usd: 0.1, cost_known: true, duration_ms: 1500 },
      output: null, issues: [], git_range: null, branch: null, files_changed: [], worktree: { mode: 'worktree', path: '/w', kept: false }, run_dir: c.dir,
    }));
    // a line cut by a crash must not hide the rest
    c.write('events.jsonl', `${readFileSync(c.eventsFile, 'utf8')}{"ts":"2026`);
    const list = listRuns(repo);
    assert.deepEqual(list.map((r) => [r.run_id.slice(0, 8), r.state, r.status, r.attempts]), [
      ['20260103', 'finished', 'pass', 2],
      ['20260102', 'running', null, 0],
      ['20260101', 'incomplete', null, 1],
    ]);
    assert.equal(resolveRunId(repo, 'last'), '20260103-000000-implementer-cccccc');
    assert.equal(resolveRunId(repo, 'bbbbbb'), '20260102-000000-reviewer-bbbbbb');
    assert.equal(readRun(repo, '20260103').events.length, 1);
    assert.throws(() => resolveRunId(repo, 'nope'), { code: 'RUN_NOT_FOUND' });
    assert.throws(() => resolveRunId(repo, '2026'), { code: 'RUN_AMBIGUOUS' });
  });
});

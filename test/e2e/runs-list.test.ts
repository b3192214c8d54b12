/** `supervisor runs list`: --limit is checked, and only the runs shown are read. */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { makeRepo } from '../helpers/git-repo.ts';
import { runCli } from '../helpers/run-cli.ts';

const metrics = { attempts: 1, input_tokens: 1, output_tokens: 1, cost_usd: 0, cost_known: true, duration_ms: 5 };

/** A run folder whose events.jsonl cannot be read (a folder): reading it throws EISDIR. */
function run(repo: string, id: string, result: boolean): void {
  const dir = join(repo, '.supervisor/runs', id);
  mkdirSync(join(dir, 'events.jsonl'), { recursive: true });
  if (result) {
    const rest = { output: null, issues: [], git_range: null, branch: null, files_changed: [], worktree: { mode: 'worktree', path: '/w', kept: false }, run_dir: dir };
    writeFileSync(join(dir, 'result.json'), JSON.stringify({ run_id: id, status: 'pass', exit_code: 0, role: 'reviewer', cli: 'claude', started_at: '', metrics, ...rest }));
  }
}

describe('supervisor runs list', () => {
  it('refuses a --limit that is not a whole number > 0', async () => {
    const repo = await makeRepo();
    for (const limit of ['abc', '0', '-1', '1.5']) {
      const out = await runCli(['runs', 'list', '--limit', limit], { cwd: repo });
      assert.equal(out.code, 2, limit);
      assert.ok(out.stderr.includes(`--limit expects a whole number > 0, got "${limit}"`), out.stderr);
    }
  });

  it('reads only the newest --limit runs, and the events of none that has a result', async () => {
    const repo = await makeRepo();
    run(repo, '20260101-000000-reviewer-aaaaaa', false); // oldest, beyond the limit
    run(repo, '20260102-000000-reviewer-bbbbbb', true);
    run(repo, '20260103-000000-reviewer-cccccc', true);
    const out = await runCli(['runs', 'list', '--limit', '2', '--json'], { cwd: repo });
    assert.equal(out.code, 0, out.stderr);
    const ids = (JSON.parse(out.stdout) as { run_id: string }[]).map((r) => r.run_id);
    assert.deepEqual(ids, ['20260103-000000-reviewer-cccccc', '20260102-000000-reviewer-bbbbbb']);
  });
});

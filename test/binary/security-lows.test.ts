/**
 * Issue 27, the lows, through the built binary: `workflow finish --into` takes a branch name only,
 * `gc --include-workflows` deletes only branches of tasks the workflow has, and a quota wait
 * never drops below its floor (1 s, doubling) when the CLI says `retry-after: 0`.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { cp, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { git, tempDir } from '../helpers/git-repo.ts';
import { binarySuite } from './binary.ts';
import { calls, plan, step, wf, world, yamlPlan } from './_workflow-world.ts';

const CLAUDE_CAPTURES = join(import.meta.dirname, '..', 'fixtures', 'cli', 'claude');

function errorCode(stderr: string): string {
  return (JSON.parse(stderr.trim().split('\n').pop()!) as { error: { code: string } }).error.code;
}

describe('finish --into and gc of workflow branches (issue 27, lows)', binarySuite(), () => {
  it('finish --into refuses a full refname, @, a tag and a supervisor/ branch (WORKFLOW_FINISH_INTO); gc keeps a person\'s supervisor/wf/<id>--mine', async () => {
    const w = await world();
    const file = await plan(w, yamlPlan([{ id: 'a', review: 'none' }]));
    const { code, result, stderr } = await wf(w, ['run', file]);
    assert.equal(code, 0, stderr);
    const main = git(w.repo, 'branch', '--show-current').trim();
    const before = git(w.repo, 'rev-parse', main).trim();
    git(w.repo, 'tag', 'v1');
    for (const into of [`refs/heads/${main}`, '@', 'v1', `supervisor/wf/${result.workflow_id}`]) {
      const refused = await w.box.run(['workflow', 'finish', result.workflow_id, '--into', into, '--json'], { cwd: w.repo, env: w.env });
      assert.equal(refused.code, 2, `${into}: ${refused.stderr}`);
      assert.equal(errorCode(refused.stderr), 'WORKFLOW_FINISH_INTO', into);
    }
    assert.equal(git(w.repo, 'rev-parse', main).trim(), before);
    assert.equal(git(w.repo, 'for-each-ref', 'refs/heads/refs/').trim(), '', 'no branch named like a refname was made');

    // A person's branch that only looks like a task branch of the workflow.
    const mine = `supervisor/wf/${result.workflow_id}--mine`;
    git(w.repo, 'branch', mine, before);
    git(w.repo, 'branch', 'release', before);
    const finished = await w.box.run(['workflow', 'finish', result.workflow_id, '--into', 'release', '--json'], { cwd: w.repo, env: w.env });
    assert.equal(finished.code, 0, finished.stderr);
    const gc = await w.box.run(['gc', '--include-workflows', '--json'], { cwd: w.repo, env: w.env });
    assert.equal(gc.code, 0, gc.stderr);
    assert.equal(git(w.repo, 'rev-parse', '--verify', '-q', mine).trim(), before, `${mine} is kept`);
  });

  it('a 429 with retry-after: 0 every time keeps the quota backoff (1 s, doubling): a few CLI runs in a 6 s --quota-wait, not a tight loop', async () => {
    const w = await world();
    // Claude's real 429 envelope, its message saying retry-after: 0 (as some proxies answer).
    const fixtures = await tempDir('sv-captures-');
    await mkdir(join(fixtures, 'claude'));
    for (const ext of ['exitcode', 'stderr']) await cp(join(CLAUDE_CAPTURES, `json-http429-retries0.${ext}`), join(fixtures, 'claude', `json-http429-retry-after0.${ext}`));
    const envelope = JSON.parse(readFileSync(join(CLAUDE_CAPTURES, 'json-http429-retries0.stdout'), 'utf8')) as { result: string };
    envelope.result = 'API Error: Request rejected (429) · Too Many Requests · retry-after: 0';
    await writeFile(join(fixtures, 'claude', 'json-http429-retry-after0.stdout'), `${JSON.stringify(envelope)}\n`);
    w.env.FAKE_CLI_FIXTURES = fixtures;
    const file = await plan(w, yamlPlan([{ id: 'a', review: 'none' }]));
    await step(w, 'a/worker', { fail_case: 'json-http429-retry-after0', fail_times: 1000 });
    const stopped = await wf(w, ['run', file, '--quota-wait', '6s']);
    assert.equal(stopped.code, 1, stopped.stderr);
    assert.equal(stopped.result.status, 'stopped');
    assert.match(stopped.result.stop_reason ?? '', /quota/);
    // Each run makes 3 attempts; runs start at 0 s, 1 s and 3 s, and the next pause (4 s) passes
    // the 6 s wait: at most 3 runs, 9 calls (without the floor: one run after the other, ~24 here).
    const failed = calls(w).filter((c) => c.failed === 'json-http429-retry-after0').length;
    assert.ok(failed >= 1 && failed <= 9, `${failed} CLI runs in a 6 s quota wait`);
  });
});

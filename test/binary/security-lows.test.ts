/**
 * Issue 27, the lows, through the built binary: `workflow finish --into` takes a branch name only,
 * and `gc --include-workflows` deletes only branches of tasks the workflow has.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { git } from '../helpers/git-repo.ts';
import { binarySuite } from './binary.ts';
import { plan, wf, world, yamlPlan } from './_workflow-world.ts';

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
});

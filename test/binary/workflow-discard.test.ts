/**
 * Clean-up a person can find, through the built binary: after three workflows (one passed and
 * handed on, one ended gaps, one awaiting approval), `gc --include-workflows` removes the one
 * handed on and says why it keeps the others; `workflow discard` refuses the running one and,
 * without --force, the ones with work found nowhere else (naming it); with --force it removes
 * them; then no branch, ref or folder of ours is left and the user's branches are untouched.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { assertCheckoutUnchanged } from '../helpers/checkout.ts';
import { git } from '../helpers/git-repo.ts';
import { workflowPaths } from '../../core/workflow/engine/names.ts';
import { WorkflowStore } from '../../core/workflow/engine/store.ts';
import { binarySuite } from './binary.ts';
import { plan, step, wf, world, yamlPlan, type World } from './_workflow-world.ts';

const errorCode = (stderr: string) => (JSON.parse(stderr.trim().split('\n').pop()!) as { error: { code: string; details: { branches?: string[] } } }).error;

async function sv(w: World, args: string[]) {
  return w.box.run(args, { cwd: w.repo, env: w.env });
}

describe('workflow discard and gc --include-workflows, from the binary', binarySuite(), () => {
  it('leave no branch or folder of ours after a passed, a gaps and an awaiting workflow; unmerged work needs --force and is named', async () => {
    const w = await world({ 'README.md': '# demo\n' });
    const main = git(w.repo, 'branch', '--show-current').trim();
    const passed = await wf(w, ['run', await plan(w, yamlPlan([{ id: 'p', review: 'none' }]))]);
    assert.equal(passed.result.status, 'pass', passed.stderr);
    const handed = await sv(w, ['workflow', 'finish', passed.result.workflow_id, '--into', 'release']);
    assert.equal(handed.code, 0, handed.stderr);
    await step(w, 'g/spec-reviewer', { reply: 'role: spec-reviewer\ntask_id: g\nstatus: gaps\nconfidence: high\nissues: not yet\n\nIssues found.\n' });
    const gaps = await wf(w, ['run', await plan(w, yamlPlan([{ id: 'g', review: 'spec-only', rounds: 1 }]))]);
    assert.equal(gaps.result.status, 'gaps', gaps.stderr);
    const waiting = await wf(w, ['run', await plan(w, `${yamlPlan([{ id: 'a', review: 'none' }])}    approve: true\n`)]);
    assert.equal(waiting.code, 5, waiting.stderr);
    const ids = [passed, gaps, waiting].map((r) => r.result.workflow_id);
    const release = git(w.repo, 'rev-parse', 'release').trim();

    const gc = await sv(w, ['gc', '--include-workflows', '--json']);
    assert.equal(gc.code, 0, gc.stderr);
    const report = JSON.parse(gc.stdout) as { removed: { kind: string; name: string }[]; kept: { kind: string; name: string; reason: string }[] };
    assert.deepEqual(report.removed.filter((i) => i.kind === 'workflow').map((i) => i.name), [ids[0]]);
    assert.ok(!report.kept.some((i) => i.name.endsWith('/wf')), 'no notice about the workflows\' worktree folder');
    const gapsTask = report.kept.find((i) => i.name === `supervisor/wf/${ids[1]}--g`);
    assert.match(gapsTask?.reason ?? '', /holds commits that are not on/, `the gaps task's work is kept, with its reason: ${gc.stdout}`);

    const lock = new WorkflowStore(w.repo, ids[2]!).lock();
    try {
      const busy = await sv(w, ['workflow', 'discard', ids[2]!, '--force', '--json']);
      assert.equal(busy.code, 2);
      assert.equal(errorCode(busy.stderr).code, 'WORKFLOW_BUSY');
    } finally {
      lock.release();
    }
    const mine = `supervisor/wf/${ids[1]}--mine`; // a person's branch named like a task branch of a task the plan does not have
    git(w.repo, 'branch', mine, main);
    for (const id of ids.slice(1)) {
      const refused = await sv(w, ['workflow', 'discard', id, '--json']);
      assert.equal(refused.code, 2, refused.stderr);
      const error = errorCode(refused.stderr);
      assert.equal(error.code, 'WORKFLOW_UNMERGED_WORK');
      assert.ok(error.details.branches!.length > 0 && error.details.branches!.every((b) => b.startsWith(`supervisor/wf/${id}--`)), refused.stderr);
      const forced = await sv(w, ['workflow', 'discard', id, '--force', '--json']);
      assert.equal(forced.code, 0, forced.stderr);
    }

    assert.equal(git(w.repo, 'rev-parse', '--verify', '-q', mine).trim(), git(w.repo, 'rev-parse', main).trim(), `${mine} is left alone`);
    git(w.repo, 'branch', '-D', mine);
    assert.equal(git(w.repo, 'for-each-ref', 'refs/heads/supervisor/', 'refs/supervisor/').trim(), '', 'no branch or ref of ours');
    assert.deepEqual(readdirSync(join(w.repo, '.supervisor', 'workflows')), []);
    for (const id of ids) assert.equal(existsSync(workflowPaths(w.repo, id).worktrees), false, `no worktree folder of ${id}`);
    const worktreesRoot = dirname(workflowPaths(w.repo, ids[0]!).worktrees);
    assert.deepEqual(existsSync(worktreesRoot) ? readdirSync(worktreesRoot) : [], []);
    assert.equal(git(w.repo, 'worktree', 'list', '--porcelain').split('\n').filter((l) => l.startsWith('worktree ')).length, 1, 'only the checkout');
    assert.equal(git(w.repo, 'rev-parse', 'release').trim(), release, 'the branch the work was handed on to stays');
    assert.equal(git(w.repo, 'branch', '--show-current').trim(), main);
    assertCheckoutUnchanged(w.repo, w.before);

    const gone = await sv(w, ['workflow', 'gc']);
    assert.equal(gone.code, 2);
    assert.match(gone.stderr, /supervisor gc --include-workflows/);
  });
});

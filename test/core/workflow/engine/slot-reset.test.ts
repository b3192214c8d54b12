import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { checkWorktree, worktreeTouched } from '../../../../core/git/verified-worktree.ts';
import { openTaskWorktree, resetWorktree, type SlotGitOps } from '../../../../core/workflow/engine/git-ops.ts';
import { workflowPaths, slotWorktree } from '../../../../core/workflow/engine/names.ts';
import { SlotPool } from '../../../../core/workflow/engine/slot-pool.ts';
import { slotOf } from '../../../../core/workflow/engine/slots.ts';
import { countingGit, git, makeRepo } from '../../../helpers/git-repo.ts';

/** A task's slot on branch `task`, with a reviewer's CLI that committed and left a file there. */
async function slotAfterReviewer() {
  const repo = await makeRepo();
  const counting = await countingGit();
  const paths = workflowPaths(repo, 'wf');
  const ops: SlotGitOps = { repoRoot: repo, env: counting.env, slots: new SlotPool(paths) };
  const path = slotWorktree(paths, 0);
  const start = git(repo, 'rev-parse', 'HEAD').trim();
  await openTaskWorktree(ops, path, 'task', start);
  worktreeTouched(path); // the reviewer's CLI starts there
  writeFileSync(join(path, 'review.txt'), 'a reviewer wrote this\n');
  git(path, 'add', 'review.txt');
  git(path, '-c', 'user.name=r', '-c', 'user.email=r@r', 'commit', '-qm', 'reviewer commit');
  writeFileSync(join(path, 'stray.txt'), 'left behind\n');
  return { repo, ops, path, start, counting };
}

describe("a reviewer's slot reset", () => {
  it("uses the check its run made after the CLI: one git (status) before the reset, and the reviewer's commit and files go", async () => {
    const { ops, path, start, counting } = await slotAfterReviewer();
    const runCheck = await checkWorktree(slotOf(ops.slots, path)!.git, { base: start, branch: 'task' }, ops.env);
    assert.equal(runCheck.problem, null);
    const before = (await counting.calls()).length;
    await resetWorktree(ops, path, start);
    const calls = (await counting.calls()).slice(before);
    assert.ok(!calls.some((c) => c.includes('rev-parse')), `no second check: ${calls.join(' | ')}`);
    assert.match(calls[0] ?? '', /status --porcelain/);
    assert.equal(git(path, 'rev-parse', 'HEAD').trim(), start);
    assert.equal(git(path, 'status', '--porcelain'), '');
  });

  it('checks the slot itself when no check was made since the CLI ran', async () => {
    const { ops, path, start, counting } = await slotAfterReviewer();
    const before = (await counting.calls()).length;
    await resetWorktree(ops, path, start);
    const calls = (await counting.calls()).slice(before);
    assert.ok(calls.some((c) => c.includes('rev-parse --git-common-dir')), calls.join(' | '));
    assert.equal(git(path, 'rev-parse', 'HEAD').trim(), start);
  });

  it('checks the slot itself when the last check found HEAD off the slot’s branch: the slot is broken', async () => {
    const { ops, path, start } = await slotAfterReviewer();
    git(path, 'checkout', '-q', '--detach');
    assert.equal((await checkWorktree(slotOf(ops.slots, path)!.git, {}, ops.env)).problem, null, 'a check that expected no branch passed');
    await assert.rejects(resetWorktree(ops, path, start), { code: 'WORKSPACE_BROKEN' });
  });
});

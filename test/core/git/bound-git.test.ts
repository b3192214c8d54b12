import assert from 'node:assert/strict';
import { readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { boundGit } from '../../../core/git/bound-git.ts';
import { verifyWorktree } from '../../../core/git/verified-worktree.ts';
import { ensureStateDir } from '../../../core/state-dir.ts';
import { inspectRepo, openWorkspace, saveWorkspace, type Workspace } from '../../../core/run/worktree.ts';
import { assertCheckoutUnchanged, snapshotCheckout } from '../../helpers/checkout.ts';
import { git, makeRepo, writeFiles } from '../../helpers/git-repo.ts';

async function opened(): Promise<{ repo: string; ws: Workspace & { git: NonNullable<Workspace['git']>; base: string } }> {
  const repo = await makeRepo({ 'a.txt': 'a\n' });
  await writeFiles(repo, { 'a.txt': 'the user is editing this\n', 'mine.txt': 'untracked work of the user\n' });
  const paths = ensureStateDir(repo);
  const ws = await openWorkspace({ repoRoot: repo, runId: 'run-1', worktreesDir: paths.worktrees, useWorktree: true, repo: await inspectRepo(repo) });
  assert.ok(ws.git && ws.base);
  return { repo, ws: ws as Workspace & { git: NonNullable<Workspace['git']>; base: string } };
}

describe('git bound to a worktree', () => {
  it('records the worktree\'s own admin folder under the common git dir when the worktree is made', async () => {
    const { repo, ws } = await opened();
    assert.equal(ws.git.gitDir, join(repo, '.git', 'worktrees', 'run-1'));
    assert.equal(ws.git.commonDir, join(repo, '.git'));
    assert.equal(await verifyWorktree(ws.git, { base: ws.base }), null);
  });

  it('acts on the worktree even when its .git file is gone (never on the repository around it)', async () => {
    const { ws } = await opened();
    rmSync(join(ws.path, '.git'));
    await writeFiles(ws.path, { 'b.txt': 'b\n' });
    const status = await boundGit(ws.git).runOrThrow(['status', '--porcelain']);
    assert.equal(status, '?? b.txt\n', 'the worktree\'s status, not the user\'s checkout\'s');
  });

  const broken: Array<[string, (repo: string, ws: Workspace & { git: NonNullable<Workspace['git']> }) => void, RegExp]> = [
    ['its .git file is deleted', (_repo, ws) => rmSync(join(ws.path, '.git')), /\.git is gone/],
    ['its .git points at the main repository', (repo, ws) => writeFileSync(join(ws.path, '.git'), `gitdir: ${join(repo, '.git')}\n`), /no longer points at the worktree's git dir/],
    ['its .git is a link to the main .git', (repo, ws) => (rmSync(join(ws.path, '.git')), symlinkSync(join(repo, '.git'), join(ws.path, '.git'))), /symbolic link/],
    ['its admin folder is pruned', (repo) => rmSync(join(repo, '.git', 'worktrees', 'run-1'), { recursive: true }), /git dir .* is gone/],
    ['HEAD is moved off the line of its base', (_repo, ws) => git(ws.path, 'checkout', '-q', '--orphan', 'elsewhere'), /no HEAD commit|not on the line/],
  ];
  for (const [what, breakIt, why] of broken) {
    it(`is not the worktree any more when ${what}: saving commits nothing and leaves the user's checkout as it was`, async () => {
      const { repo, ws } = await opened();
      await writeFiles(ws.path, { 'work.txt': 'the run\'s work\n' });
      const before = snapshotCheckout(repo);
      const branches = git(repo, 'branch', '--list');
      breakIt(repo, ws);
      assert.match((await verifyWorktree(ws.git, { base: ws.base })) ?? 'null', why);
      await assert.rejects(saveWorkspace(ws, { runId: 'run-1', message: 'm', repoRoot: repo }), { code: 'WORKSPACE_BROKEN' });
      assertCheckoutUnchanged(repo, before);
      assert.equal(git(repo, 'branch', '--list'), branches);
    });
  }

  it('checks the branch when one is expected (a caller-owned worktree), and accepts commits on top of the base', async () => {
    const { ws } = await opened();
    git(ws.path, 'checkout', '-q', '-b', 'feature');
    await writeFiles(ws.path, { 'c.txt': 'c\n' });
    git(ws.path, 'add', '-A');
    git(ws.path, 'commit', '-q', '-m', 'c');
    assert.equal(await verifyWorktree(ws.git, { base: ws.base, branch: 'feature' }), null);
    assert.match((await verifyWorktree(ws.git, { base: ws.base, branch: 'other' })) ?? '', /not on its branch other/);
  });

  it('ignores GIT_DIR and GIT_WORK_TREE in the environment (a run started from inside a git hook)', async () => {
    const { repo, ws } = await opened();
    await writeFiles(ws.path, { 'work.txt': 'w\n' });
    const before = snapshotCheckout(repo);
    const env = { ...process.env, GIT_DIR: join(repo, '.git'), GIT_WORK_TREE: repo, GIT_INDEX_FILE: join(repo, '.git', 'index') };
    const saved = await saveWorkspace(ws, { runId: 'run-1', message: 'm', repoRoot: repo, env });
    assert.deepEqual(saved.changes?.filesChanged, ['work.txt']);
    assertCheckoutUnchanged(repo, before);
    assert.equal(readFileSync(join(repo, 'a.txt'), 'utf8'), 'the user is editing this\n');
  });

  it("never moves a branch the CLI checked out in the worktree (even the user's own): the run's commit is made detached", async () => {
    const { repo, ws } = await opened();
    const main = git(repo, 'rev-parse', 'main').trim();
    git(ws.path, 'checkout', '-q', '--ignore-other-worktrees', 'main');
    await writeFiles(ws.path, { 'work.txt': 'w\n' });
    const saved = await saveWorkspace(ws, { runId: 'run-1', message: 'm', repoRoot: repo });
    assert.equal(saved.changes?.branch, 'supervisor/run-1');
    assert.equal(git(repo, 'rev-parse', 'main').trim(), main, 'main is where it was');
  });
});

import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { closeWorkspace, commitWorkspace, inspectRepo, openWorkspace } from '../../../core/run/worktree.ts';
import { ensureStateDir, worktreesDir } from '../../../core/state-dir.ts';
import { git, makeRepo, tempDir, writeFiles } from '../../helpers/git-repo.ts';
import { assertCheckoutUnchanged, snapshotCheckout } from '../../helpers/checkout.ts';

async function open(repo: string, runId: string, useWorktree = true) {
  const paths = ensureStateDir(repo);
  return openWorkspace({ repoRoot: repo, runId, worktreesDir: paths.worktrees, useWorktree, repo: await inspectRepo(repo) });
}

describe('worktree manager', () => {
  it('works in a detached worktree from HEAD and commits changes, untracked files included, on supervisor/<run-id>', async () => {
    const repo = await makeRepo({ 'a.txt': 'a\n', 'b.txt': 'b\n' });
    const before = snapshotCheckout(repo);
    const base = git(repo, 'rev-parse', 'HEAD').trim();
    const ws = await open(repo, 'run-1');
    assert.equal(ws.mode, 'worktree');
    assert.equal(ws.base, base);
    assert.equal(ws.path, join(worktreesDir(repo), 'run-1'));
    assert.ok(!ws.path.startsWith(`${repo}/`), 'the worktree is outside the checkout');
    await writeFiles(ws.path, { 'a.txt': 'changed\n', 'new/c.txt': 'new\n' });
    const changes = await commitWorkspace(ws, 'run-1', 'supervisor implementer: test');
    assert.ok(changes);
    assert.equal(changes.branch, 'supervisor/run-1');
    const head = git(repo, 'rev-parse', 'supervisor/run-1').trim();
    assert.equal(changes.gitRange, `${base}..${head}`);
    assert.deepEqual(changes.filesChanged.sort(), ['a.txt', 'new/c.txt']);
    assert.equal(git(repo, 'show', 'supervisor/run-1:new/c.txt'), 'new\n');
    await closeWorkspace(repo, ws);
    assert.ok(!existsSync(ws.path));
    assert.ok(!git(repo, 'worktree', 'list').includes('run-1'));
    assertCheckoutUnchanged(repo, before);
    assert.equal(readFileSync(join(repo, 'a.txt'), 'utf8'), 'a\n');
  });

  it('makes no commit and no branch when nothing changed', async () => {
    const repo = await makeRepo();
    const ws = await open(repo, 'run-2');
    assert.equal(await commitWorkspace(ws, 'run-2', 'm'), null);
    assert.equal(git(repo, 'branch', '--list', 'supervisor/*'), '');
    await closeWorkspace(repo, ws);
  });

  it("keeps commits the CLI made itself in the range", async () => {
    const repo = await makeRepo();
    const ws = await open(repo, 'run-3');
    await writeFiles(ws.path, { 'x.txt': 'x\n' });
    git(ws.path, 'add', 'x.txt');
    git(ws.path, 'commit', '-q', '-m', 'by the CLI');
    const changes = await commitWorkspace(ws, 'run-3', 'm');
    assert.deepEqual(changes?.filesChanged, ['x.txt']);
    await closeWorkspace(repo, ws);
  });

  it('commits even without a configured git identity', async () => {
    const repo = await makeRepo();
    git(repo, 'config', '--unset', 'user.email');
    git(repo, 'config', '--unset', 'user.name');
    const ws = await open(repo, 'run-4');
    await writeFiles(ws.path, { 'y.txt': 'y\n' });
    const changes = await commitWorkspace(ws, 'run-4', 'm');
    assert.deepEqual(changes?.filesChanged, ['y.txt']);
    await closeWorkspace(repo, ws);
  });

  it('runs in place outside a repository, in an empty repository, or when asked', async () => {
    const plain = await tempDir();
    assert.deepEqual(await open(plain, 'r'), { mode: 'in-place', path: plain, base: null, reason: 'not a git repository' });
    const repo = await makeRepo();
    assert.equal((await open(repo, 'r', false)).reason, '--no-worktree was given');
    const empty = await tempDir();
    git(empty, 'init', '-q');
    assert.equal((await open(empty, 'r')).reason, 'the repository has no commits yet');
  });

  it('reports a dirty checkout', async () => {
    const repo = await makeRepo();
    assert.equal((await inspectRepo(repo)).dirty, false);
    await writeFiles(repo, { '.supervisor/runs/x/run.log': 'ours\n' });
    assert.equal((await inspectRepo(repo)).dirty, false, "supervisor's own untracked files are not the user's work");
    await writeFiles(repo, { 'README.md': 'changed\n' });
    assert.equal((await inspectRepo(repo)).dirty, true);
  });

  it('refuses a bare repository and the inside of a .git folder, rather than working in place there', async () => {
    const repo = await makeRepo();
    const bare = join(await tempDir(), 'bare.git');
    git(repo, 'clone', '-q', '--bare', repo, bare);
    for (const dir of [bare, join(repo, '.git')]) {
      const state = await inspectRepo(dir);
      assert.equal(state.bare, true, dir);
      await assert.rejects(open(dir, 'r'), { code: 'BARE_REPOSITORY' });
    }
  });

  it("runs none of the repository's hooks for its own git (worktree add, commit, branch)", async () => {
    const repo = await makeRepo();
    const marker = join(await tempDir(), 'hooks.txt');
    for (const hook of ['post-checkout', 'pre-commit', 'prepare-commit-msg', 'commit-msg', 'post-commit', 'reference-transaction']) {
      writeFileSync(join(repo, '.git', 'hooks', hook), `#!/bin/sh\necho ${hook} >> "${marker}"\n`, { mode: 0o755 });
    }
    const ws = await open(repo, 'run-hooks');
    await writeFiles(ws.path, { 'x.txt': 'x\n' });
    assert.ok(await commitWorkspace(ws, 'run-hooks', 'm'));
    await closeWorkspace(repo, ws);
    assert.equal(existsSync(marker), false, existsSync(marker) ? readFileSync(marker, 'utf8') : '');
  });
});

import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, realpathSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { checkStateFilesEarly, ensureWorktreesDir, statePaths, worktreesDir, worktreesHome } from '../../core/state-dir.ts';
import { makeRepo, tempDir } from '../helpers/git-repo.ts';

describe('the state folder (SECURITY I4)', () => {
  it('fails closed: a repository whose tracked files git cannot list is refused, not taken as tracking none', async () => {
    const repo = await makeRepo({ 'README.md': '# demo\n' });
    mkdirSync(join(repo, '.supervisor'));
    writeFileSync(join(repo, '.git', 'index'), 'not an index');
    assert.throws(() => statePaths(repo), (e: { code?: string }) => e.code === 'STATE_DIR_UNSAFE');
  });

  it('the early check through async git keeps only a clean answer: a tracked state file is still refused after it', async () => {
    const tracked = await makeRepo({ 'README.md': '# demo\n', '.supervisor/runs/x/run.json': '{}' });
    await checkStateFilesEarly(tracked);
    assert.throws(() => statePaths(tracked), (e: { code?: string; message?: string }) => e.code === 'STATE_DIR_UNSAFE' && /tracked by git/.test(e.message ?? ''));
    const unreadable = await makeRepo({ 'README.md': '# demo\n' });
    mkdirSync(join(unreadable, '.supervisor'));
    writeFileSync(join(unreadable, '.git', 'index'), 'not an index');
    await checkStateFilesEarly(unreadable);
    assert.throws(() => statePaths(unreadable), (e: { code?: string }) => e.code === 'STATE_DIR_UNSAFE', 'a listing that failed is not taken as clean');
  });

  it('a repository with a readable index and no state files tracked is fine', async () => {
    const repo = await makeRepo({ 'README.md': '# demo\n' });
    mkdirSync(join(repo, '.supervisor'));
    assert.equal(statePaths(repo).root, join(repo, '.supervisor'));
  });
});

describe('where worktrees live: outside the checkout (issue 28, item 4)', () => {
  it('under the home by default, XDG_STATE_HOME when set, SUPERVISOR_WORKTREES_DIR over both; a relative one is a usage error', () => {
    assert.equal(worktreesHome({ HOME: '/home/u' }), '/home/u/.supervisor/worktrees');
    assert.equal(worktreesHome({ HOME: '/home/u', XDG_STATE_HOME: '/home/u/.local/state' }), '/home/u/.local/state/supervisor/worktrees');
    assert.equal(worktreesHome({ HOME: '/home/u', XDG_STATE_HOME: '/s', SUPERVISOR_WORKTREES_DIR: '/w/t' }), '/w/t');
    assert.throws(() => worktreesHome({ SUPERVISOR_WORKTREES_DIR: 'rel/dir' }), (e: { code?: string }) => e.code === 'USAGE');
  });

  it('one folder per repository, by its real path: two clones of one name never share, a link to a clone finds its folder', async () => {
    const env = { SUPERVISOR_WORKTREES_DIR: '/w' };
    const [a, b] = [await makeRepo(), await makeRepo()];
    assert.notEqual(worktreesDir(a, env), worktreesDir(b, env));
    assert.equal(dirname(worktreesDir(a, env)), '/w');
    assert.ok(basename(worktreesDir(a, env)).startsWith(basename(realpathSync(a))));
    const link = join(await tempDir(), 'link');
    symlinkSync(a, link);
    assert.equal(worktreesDir(link, env), worktreesDir(a, env));
  });

  it('is made 0700; a link, or a folder others may write, is refused STATE_DIR_UNSAFE', async () => {
    const repo = await makeRepo();
    const home = join(await tempDir(), 'wt');
    const env = { SUPERVISOR_WORKTREES_DIR: home };
    const dir = ensureWorktreesDir(repo, env);
    assert.equal(statSync(dir).mode & 0o777, 0o700);
    assert.equal(statSync(home).mode & 0o777, 0o700);
    chmodSync(dir, 0o777);
    assert.throws(() => ensureWorktreesDir(repo, env), (e: { code?: string }) => e.code === 'STATE_DIR_UNSAFE');
    const other = join(await tempDir(), 'wt');
    mkdirSync(other);
    symlinkSync(other, join(dirname(home), 'linked'));
    assert.throws(() => ensureWorktreesDir(repo, { SUPERVISOR_WORKTREES_DIR: join(dirname(home), 'linked') }), (e: { code?: string }) => e.code === 'STATE_DIR_UNSAFE');
  });
});

/**
 * Locating a worktree: its admin folder, read from its `.git` file with no driver guard read for
 * it, and no git at all when the common dir is known; a `.git` that leads elsewhere is refused.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmod, mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { realpathSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { describe, it } from 'node:test';
import { locateWorktree } from '../../../core/git/bound-git.ts';
import { countingGit, git, makeRepo, tempDir } from '../../helpers/git-repo.ts';

describe('locateWorktree', () => {
  it('finds the admin folder with no config read in the new worktree', async () => {
    const repo = await makeRepo();
    const bin = await tempDir();
    const log = join(bin, 'calls');
    const real = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
    await writeFile(join(bin, 'git'), `#!/bin/sh\ncase "$*" in *' config '*) echo "config $PWD" >> '${log}' ;; esac\nexec ${real} "$@"\n`);
    await chmod(join(bin, 'git'), 0o755);
    const env = { ...process.env, PATH: `${bin}${delimiter}${process.env.PATH ?? ''}` };
    const made: string[] = [];
    for (const name of ['one', 'two']) {
      const path = join(await tempDir(), name);
      git(repo, 'worktree', 'add', '-q', '--detach', path);
      const located = await locateWorktree(repo, path, env);
      assert.equal(located.gitDir, join(realpathSync(join(repo, '.git')), 'worktrees', name));
      made.push(path);
    }
    const reads = (await readFile(log, 'utf8').catch(() => '')).split('\n').filter(Boolean);
    assert.deepEqual(reads.filter((line) => made.some((path) => line.endsWith(path))), []);
  });

  it('runs no git when the common dir is known (read with the repository\'s state)', async () => {
    const repo = await makeRepo();
    const path = join(await tempDir(), 'wt');
    git(repo, 'worktree', 'add', '-q', '--detach', path);
    const { env, calls } = await countingGit();
    const common = realpathSync(join(repo, '.git'));
    const located = await locateWorktree(repo, path, env, common);
    assert.deepEqual({ gitDir: located.gitDir, commonDir: located.commonDir }, { gitDir: join(common, 'worktrees', 'wt'), commonDir: common });
    assert.deepEqual(await calls(), []);
  });

  it('refuses a .git file that leads to another repository\'s worktree', async () => {
    const repo = await makeRepo();
    const other = await makeRepo();
    const path = join(await tempDir(), 'wt');
    const elsewhere = join(await tempDir(), 'elsewhere');
    git(repo, 'worktree', 'add', '-q', '--detach', path);
    git(other, 'worktree', 'add', '-q', '--detach', elsewhere);
    await writeFile(join(path, '.git'), `gitdir: ${join(realpathSync(join(other, '.git')), 'worktrees', 'elsewhere')}\n`);
    await assert.rejects(locateWorktree(repo, path), { code: 'GIT_WORKTREE_FOREIGN' });
  });

  it('refuses a .git file that names another worktree of the same repository (the admin folder does not point back)', async () => {
    const repo = await makeRepo();
    const dir = await tempDir();
    git(repo, 'worktree', 'add', '-q', '--detach', join(dir, 'one'));
    git(repo, 'worktree', 'add', '-q', '--detach', join(dir, 'two'));
    await writeFile(join(dir, 'one', '.git'), `gitdir: ${join(realpathSync(join(repo, '.git')), 'worktrees', 'two')}\n`);
    await assert.rejects(locateWorktree(repo, join(dir, 'one')), (error: { code?: string; message?: string }) => {
      assert.equal(error.code, 'GIT_WORKTREE_UNSAFE');
      assert.match(error.message ?? '', /no longer lists/);
      return true;
    });
  });

  it('refuses a .git that is a link or a folder, or names no git dir', async () => {
    const repo = await makeRepo();
    const dir = await tempDir();
    const path = join(dir, 'wt');
    git(repo, 'worktree', 'add', '-q', '--detach', path);
    const text = await readFile(join(path, '.git'), 'utf8');
    await writeFile(join(dir, 'pointer'), text);
    await rm(join(path, '.git'));
    await symlink(join(dir, 'pointer'), join(path, '.git'));
    await assert.rejects(locateWorktree(repo, path), { code: 'GIT_WORKTREE_UNSAFE' });
    await rm(join(path, '.git'));
    await mkdir(join(path, '.git'));
    await assert.rejects(locateWorktree(repo, path), { code: 'GIT_WORKTREE_UNSAFE' });
    await rm(join(path, '.git'), { recursive: true });
    await writeFile(join(path, '.git'), 'gitdir: /nonexistent/admin\n');
    await assert.rejects(locateWorktree(repo, path), { code: 'GIT_WORKTREE_UNSAFE' });
  });

  it('refuses an admin folder with a linked index before copying it into our own (SECURITY I3)', async () => {
    const repo = await makeRepo();
    const dir = await tempDir();
    const path = join(dir, 'wt');
    git(repo, 'worktree', 'add', '-q', '--detach', path);
    const secret = join(dir, 'secret');
    await writeFile(secret, 'not an index: a file of the user\'s\n');
    const admin = join(realpathSync(join(repo, '.git')), 'worktrees', 'wt');
    await rm(join(admin, 'index'));
    await symlink(secret, join(admin, 'index'));
    await assert.rejects(locateWorktree(repo, path), (error: { code?: string; message?: string }) => {
      assert.equal(error.code, 'GIT_WORKTREE_UNSAFE');
      assert.match(error.message ?? '', /symbolic link/);
      return true;
    });
    const { ownIndexPath } = await import('../../../core/git/own-index.ts');
    const own = ownIndexPath({ gitDir: admin, commonDir: realpathSync(join(repo, '.git')) });
    assert.notEqual(await readFile(own, 'utf8').catch(() => null), 'not an index: a file of the user\'s\n');
  });
});

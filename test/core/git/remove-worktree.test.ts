/**
 * Removing a worktree of ours: by the folders recorded when it was made, with no git process and
 * nothing followed that a CLI could have rewritten since (SECURITY I3); else through git.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { locateWorktree } from '../../../core/git/bound-git.ts';
import { removeWorktree } from '../../../core/git/remove-worktree.ts';
import { countingGit, git, makeRepo, tempDir } from '../../helpers/git-repo.ts';

async function madeWorktree(repo: string, name: string) {
  const path = join(await tempDir(), name);
  git(repo, 'worktree', 'add', '-q', '--detach', path);
  return locateWorktree(repo, path);
}

const listed = (repo: string) => git(repo, 'worktree', 'list', '--porcelain').split('\n').filter((line) => line.startsWith('worktree ')).length;

describe('removeWorktree', () => {
  it('deletes the recorded folder and admin folder, with no git process', async () => {
    const repo = await makeRepo();
    const worktree = await madeWorktree(repo, 'wt');
    const { env, calls } = await countingGit();
    await removeWorktree(repo, worktree.path, worktree, env);
    assert.deepEqual(await calls(), []);
    assert.equal(existsSync(worktree.path), false);
    assert.equal(existsSync(worktree.gitDir), false);
    assert.equal(listed(repo), 1, 'git lists the main worktree only');
  });

  it('deletes only what it recorded: not where a rewritten .git file, a link in the worktree or the folder swapped for a link lead', async () => {
    const repo = await makeRepo();
    const ours = await madeWorktree(repo, 'ours');
    const other = await madeWorktree(repo, 'other');
    const outside = await tempDir();
    await writeFile(join(outside, 'keep.txt'), 'the user\'s\n');
    // What a CLI can do between two of our commands: point .git at another worktree's admin folder, link out.
    await writeFile(join(ours.path, '.git'), `gitdir: ${other.gitDir}\n`);
    await symlink(outside, join(ours.path, 'out'));
    await symlink(join(outside, 'keep.txt'), join(ours.gitDir, 'index.lock'));
    await removeWorktree(repo, ours.path, ours);
    assert.equal(existsSync(join(outside, 'keep.txt')), true);
    assert.equal(existsSync(other.gitDir), true, 'the other worktree\'s admin folder');
    assert.equal(existsSync(ours.path) || existsSync(ours.gitDir), false);
    // The folder itself a link to another: the link goes, what it led to stays.
    const third = await madeWorktree(repo, 'third');
    const moved = `${third.path}-moved`;
    await rm(third.path, { recursive: true });
    await mkdir(moved);
    await writeFile(join(moved, 'keep.txt'), 'kept\n');
    await symlink(moved, third.path);
    await removeWorktree(repo, third.path, third);
    assert.equal(existsSync(join(moved, 'keep.txt')), true);
    assert.equal(existsSync(third.gitDir), false);
  });

  it('deletes nothing through a `worktrees` folder a CLI replaced by a link (nor lets git prune through it): only the worktree goes', async () => {
    const repo = await makeRepo();
    const ours = await madeWorktree(repo, 'ours');
    const elsewhere = await tempDir();
    await mkdir(join(elsewhere, 'ours'));
    await writeFile(join(elsewhere, 'ours', 'keep.txt'), 'not git\'s\n');
    const common = join(repo, '.git');
    await rm(join(common, 'worktrees'), { recursive: true });
    await symlink(elsewhere, join(common, 'worktrees'));
    const { env, calls } = await countingGit();
    await removeWorktree(repo, ours.path, ours, env);
    assert.equal(existsSync(join(elsewhere, 'ours', 'keep.txt')), true);
    assert.deepEqual(await calls(), [], 'no git remove or prune');
    assert.equal(existsSync(ours.path), false);
  });

  it('leaves to git an admin folder not named after the worktree\'s folder (a forged or numbered record)', async () => {
    const repo = await makeRepo();
    const ours = await madeWorktree(repo, 'ours');
    const other = await madeWorktree(repo, 'other');
    const { env, calls } = await countingGit();
    await removeWorktree(repo, ours.path, { ...ours, gitDir: other.gitDir }, env);
    assert.ok((await calls()).some((call) => call.includes('worktree remove')), 'git removed it');
    assert.equal(existsSync(ours.path), false);
    assert.equal(existsSync(other.gitDir) && existsSync(other.path), true, 'the other worktree is untouched');
  });
});

/**
 * A detached worktree of ours made by one git process: the same worktree `git worktree add
 * --detach` makes, for git and for the person who opens it; git's own add where the repository
 * keeps more than this writes.
 */
import assert from 'node:assert/strict';
import { existsSync, lstatSync, readFileSync, readlinkSync, realpathSync } from 'node:fs';
import { chmod, mkdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { addDetachedWorktree } from '../../../core/git/add-worktree.ts';
import { countingGit, git, makeRepo, tempDir } from '../../helpers/git-repo.ts';

async function variedRepo(): Promise<string> {
  const repo = await makeRepo({ 'README.md': '# r\n', 'src/a.ts': 'export const a = 1;\n', 'bin/run.sh': '#!/bin/sh\necho hi\n', 'crlf.txt': 'one\ntwo\n', '.gitattributes': 'crlf.txt eol=crlf\n' });
  await chmod(join(repo, 'bin/run.sh'), 0o755);
  await symlink('src/a.ts', join(repo, 'link.ts'));
  git(repo, 'add', '-A');
  git(repo, 'update-index', '--add', '--cacheinfo', `160000,${git(repo, 'rev-parse', 'HEAD').trim()},vendor/sub`);
  git(repo, 'commit', '-q', '-m', 'varied');
  return repo;
}

const common = (repo: string) => realpathSync(join(repo, '.git'));

describe('addDetachedWorktree', () => {
  it('makes the worktree git worktree add makes, with one git process', async () => {
    const repo = await variedRepo();
    const commit = git(repo, 'rev-parse', 'HEAD').trim();
    const ours = join(await tempDir(), 'ours');
    const theirs = join(await tempDir(), 'theirs');
    const { env, calls } = await countingGit();
    await addDetachedWorktree(repo, common(repo), ours, commit, env);
    // Besides the repository's driver guard (its config, read once for any git of ours there).
    const commands = (await calls()).map((call) => call.split(' ').find((word) => !word.startsWith('-') && !word.includes('=')));
    assert.deepEqual(commands.filter((command) => command !== 'config'), ['read-tree']);
    git(repo, 'worktree', 'add', '-q', '--detach', theirs, commit);
    for (const path of [ours, theirs]) {
      assert.equal(git(path, 'rev-parse', 'HEAD').trim(), commit);
      assert.equal(git(path, 'status', '--porcelain'), '', `${path} is clean`);
      assert.equal(git(path, 'rev-parse', '--abbrev-ref', 'HEAD').trim(), 'HEAD', 'detached');
    }
    assert.equal(git(ours, 'ls-files', '--stage'), git(theirs, 'ls-files', '--stage'));
    for (const file of ['README.md', 'src/a.ts', 'crlf.txt']) assert.equal(readFileSync(join(ours, file), 'utf8'), readFileSync(join(theirs, file), 'utf8'), file);
    assert.equal(readFileSync(join(ours, 'crlf.txt'), 'utf8'), 'one\r\ntwo\r\n');
    assert.equal(lstatSync(join(ours, 'bin/run.sh')).mode & 0o111, 0o111);
    assert.equal(readlinkSync(join(ours, 'link.ts')), 'src/a.ts');
    assert.equal(lstatSync(join(ours, 'vendor/sub')).isDirectory(), lstatSync(join(theirs, 'vendor/sub')).isDirectory());
    const listed = git(repo, 'worktree', 'list', '--porcelain');
    assert.match(listed, new RegExp(`worktree ${realpathSync(ours)}\\nHEAD ${commit}\\ndetached`));
    assert.equal(existsSync(join(common(repo), 'worktrees', 'ours', 'locked')), false, 'unlocked once made');
    git(repo, 'worktree', 'remove', '--force', ours);
    assert.equal(existsSync(ours) || existsSync(join(common(repo), 'worktrees', 'ours')), false);
  });

  it("leaves to git's own add a repository with per-worktree config or a sparse checkout, a linked worktrees folder and a name that is taken", async () => {
    for (const [key, value] of [['extensions.worktreeConfig', 'true'], ['core.sparseCheckout', 'false']] as const) {
      const repo = await makeRepo();
      git(repo, 'config', key, value);
      const { env, calls } = await countingGit();
      const path = join(await tempDir(), 'wt');
      await addDetachedWorktree(repo, common(repo), path, git(repo, 'rev-parse', 'HEAD').trim(), env);
      assert.ok((await calls()).some((call) => call.includes('worktree add')), key);
      assert.equal(git(path, 'status', '--porcelain'), '');
    }
    // A `worktrees` folder a CLI without a sandbox replaced by a link: nothing of ours is written through it.
    const linked = await makeRepo();
    const elsewhere = await tempDir();
    await symlink(elsewhere, join(common(linked), 'worktrees'));
    const counted = await countingGit();
    await addDetachedWorktree(linked, common(linked), join(await tempDir(), 'wt'), git(linked, 'rev-parse', 'HEAD').trim(), counted.env).catch(() => {});
    assert.ok((await counted.calls()).some((call) => call.includes('worktree add')), 'a linked worktrees folder is left to git');
    const repo = await makeRepo();
    await mkdir(join(common(repo), 'worktrees', 'wt'), { recursive: true });
    const path = join(await tempDir(), 'wt');
    const { env, calls } = await countingGit();
    await addDetachedWorktree(repo, common(repo), path, git(repo, 'rev-parse', 'HEAD').trim(), env);
    assert.ok((await calls()).some((call) => call.includes('worktree add')), 'the admin folder\'s name is taken');
    assert.equal(git(path, 'rev-parse', '--git-dir').trim(), join(common(repo), 'worktrees', 'wt1'));
  });

  it('leaves nothing when git cannot fill it', async () => {
    const repo = await makeRepo();
    const path = join(await tempDir(), 'wt');
    await assert.rejects(addDetachedWorktree(repo, common(repo), path, 'f'.repeat(40)), /read-tree/);
    assert.equal(existsSync(path) || existsSync(join(common(repo), 'worktrees', 'wt')), false);
  });
});

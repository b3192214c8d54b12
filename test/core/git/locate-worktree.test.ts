/** Locating a worktree git has just made: its admin folder, with no driver guard read for it (rev-parse runs no driver). */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmod, readFile, writeFile } from 'node:fs/promises';
import { realpathSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { describe, it } from 'node:test';
import { locateWorktree } from '../../../core/git/bound-git.ts';
import { git, makeRepo, tempDir } from '../../helpers/git-repo.ts';

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
});

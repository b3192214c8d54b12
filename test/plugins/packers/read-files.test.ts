/** The packers' file reader: symlinked files are read only when they lead inside the repository, with or without O_NOFOLLOW. */
import assert from 'node:assert/strict';
import { constants } from 'node:fs';
import { symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { readFiles } from '../../../plugins/packers/_read-files.ts';
import { makeRepo, tempDir, writeFiles } from '../../helpers/git-repo.ts';
import { packContextFor } from './_context.ts';

describe('readFiles', () => {
  for (const [platform, noFollow] of [['with O_NOFOLLOW', constants.O_NOFOLLOW], ['without O_NOFOLLOW (Windows)', null]] as const) {
    it(`${platform}: reads a symlink that stays inside, refuses one that leads outside`, async () => {
      const outside = await tempDir('sv-outside-');
      await writeFiles(outside, { 'secret.txt': 'TOP-SECRET\n' });
      const repo = await makeRepo({ 'src/a.ts': 'a\n' });
      await symlink(join(outside, 'secret.txt'), join(repo, 'src/secret-link.txt'));
      await symlink('a.ts', join(repo, 'src/inside-link.ts'));
      const report = await readFiles(['src/a.ts', 'src/inside-link.ts', 'src/secret-link.txt'], packContextFor(repo), noFollow);
      assert.deepEqual(report.files, [{ path: 'src/a.ts', content: 'a\n' }, { path: 'src/inside-link.ts', content: 'a\n' }]);
      assert.deepEqual(report.outside, ['src/secret-link.txt']);
    });
  }
});

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gitignoredAmong } from '../../../core/context/gitignored.ts';
import { makeRepo } from '../../helpers/git-repo.ts';

describe('gitignoredAmong', () => {
  it("judges by the repository's own git folder, whatever GIT_DIR the caller's environment names", async () => {
    const repo = await makeRepo({ 'README.md': '# a\n', 'x.txt': 'x\n' });
    writeFileSync(join(repo, '.git', 'info', 'exclude'), 'x.txt\n');
    const other = await makeRepo();
    const ignored = await gitignoredAmong(repo, ['x.txt', 'README.md'], { ...process.env, GIT_DIR: join(other, '.git') });
    assert.deepEqual([...ignored], ['x.txt']);
  });
});

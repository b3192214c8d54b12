import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { statePaths } from '../../core/state-dir.ts';
import { makeRepo } from '../helpers/git-repo.ts';

describe('the state folder (SECURITY I4)', () => {
  it('fails closed: a repository whose tracked files git cannot list is refused, not taken as tracking none', async () => {
    const repo = await makeRepo({ 'README.md': '# demo\n' });
    mkdirSync(join(repo, '.supervisor'));
    writeFileSync(join(repo, '.git', 'index'), 'not an index');
    assert.throws(() => statePaths(repo), (e: { code?: string }) => e.code === 'STATE_DIR_UNSAFE');
  });

  it('a repository with a readable index and no state files tracked is fine', async () => {
    const repo = await makeRepo({ 'README.md': '# demo\n' });
    mkdirSync(join(repo, '.supervisor'));
    assert.equal(statePaths(repo).root, join(repo, '.supervisor'));
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { contentNotices, readContents } from '../../../core/git/worktree-contents.ts';
import { tempDir, writeFiles } from '../../helpers/git-repo.ts';

describe('what a worktree holds beyond what git add -A commits', () => {
  it('reads submodules with work inside, nested repositories and ignored files from status v2', async () => {
    const dir = await tempDir();
    await writeFiles(dir, { 'nested/.git/HEAD': 'ref: refs/heads/main\n', 'plain/x.txt': 'x\n' });
    const status = [
      '1 .M N... 100644 100644 100644 abc abc a b.txt',
      '1 .M SC.. 160000 160000 160000 abc abc lib',
      '2 R. N... 100644 100644 100644 abc abc R100 new name.txt',
      'old name.txt',
      '? nested/',
      '? plain/',
      '! build.log',
      '',
    ].join('\0');
    const contents = readContents(status, dir);
    assert.deepEqual(contents, { submodules: ['lib'], nestedRepos: ['nested'], ignored: ['build.log'], gitlinks: true, changed: true });
    const notices = contentNotices(contents, 'kept');
    assert.equal(notices.length, 3);
    assert.match(notices[0]!, /submodule lib/);
    assert.match(notices[1]!, /nested git repository nested/);
    assert.match(notices[2]!, /ignored file build\.log/);
  });

  it('counts only ignored entries as no change', async () => {
    const contents = readContents('! node_modules/\0', await tempDir());
    assert.equal(contents.changed, false);
    assert.deepEqual(contents.ignored, ['node_modules/']);
  });
});

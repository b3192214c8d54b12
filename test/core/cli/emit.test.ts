import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { tempDir } from '../../helpers/git-repo.ts';
import { runCli } from '../../helpers/run-cli.ts';

describe('__emit (the process replay answers through)', () => {
  it('prints the file as is and exits 0; it takes no other options', async () => {
    const dir = await tempDir('sv-emit-');
    await writeFile(join(dir, 'envelope.json'), '{"type":"result"}\n');
    const run = await runCli(['__emit', join(dir, 'envelope.json')], { cwd: dir });
    assert.deepEqual([run.code, run.stdout], [0, '{"type":"result"}\n']);
    const extra = await runCli(['__emit', join(dir, 'envelope.json'), '--exit-code', '3'], { cwd: dir });
    assert.equal(extra.code, 2, 'an unknown option is a usage error');
  });
});

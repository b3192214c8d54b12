/** runProcess writes output to files as it arrives, under the same cap, and a failing file never stops the process. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runProcess } from '../../../core/process/run-process.ts';
import { tempDir } from '../../helpers/git-repo.ts';

describe('runProcess teeFiles', () => {
  it('writes stdout and stderr to their files as they arrive, kept under the cap like the capture', async () => {
    const dir = await tempDir();
    const teeFiles = { stdout: join(dir, 'out'), stderr: join(dir, 'err') };
    // The first line is on disk while the process still runs: it waits for it there.
    const script = `printf 'first\\n'; i=0; while ! grep -q first "${teeFiles.stdout}"; do i=$((i+1)); [ $i -gt 500 ] && exit 9; sleep 0.01; done; printf 'second-and-more'; printf 'oops' >&2`;
    const result = await runProcess({ bin: 'sh', args: ['-c', script], cwd: dir, env: process.env, teeFiles, maxOutputBytes: 10 });
    assert.equal(result.exitCode, 0, 'the process saw its first line in the file before it ended');
    assert.equal(readFileSync(teeFiles.stdout, 'utf8'), 'first\nseco');
    assert.equal(result.stdout, 'first\nseco');
    assert.equal(result.truncated.stdout, true);
    assert.equal(readFileSync(teeFiles.stderr, 'utf8'), 'oops');
    assert.equal(result.teeError, undefined);
  });

  it('a file that cannot be written is reported and the process runs on', async () => {
    const dir = await tempDir();
    const result = await runProcess({ bin: 'sh', args: ['-c', 'printf hello'], cwd: dir, env: process.env, teeFiles: { stdout: join(dir, 'missing', 'out'), stderr: join(dir, 'err') } });
    assert.equal(result.exitCode, 0);
    assert.equal(result.stdout, 'hello');
    assert.match(result.teeError ?? '', /ENOENT/);
  });
});

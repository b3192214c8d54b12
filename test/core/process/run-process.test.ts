import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runProcess } from '../../../core/process/run-process.ts';
import { which } from '../../../core/process/which.ts';
import { tempDir } from '../../helpers/git-repo.ts';
import { requires } from '../../helpers/requires.ts';

const env = { PATH: process.env.PATH };

describe('runProcess', () => {
  it('returns a spawn the system refuses (an argument list too long) as a value, not a rejection', async () => {
    // Linux caps one argument at 128 KiB: spawn throws E2BIG synchronously.
    const result = await runProcess({ bin: '/bin/sh', args: ['-c', 'true', 'x'.repeat(300_000)], cwd: await tempDir(), env });
    assert.equal(result.notFound, false);
    assert.match(result.spawnError ?? '', /E2BIG/);
    assert.equal(result.exitCode, null);
    assert.equal(result.timedOut, false);
  });

  it('does not call a CLI that exited in time timed out while a setsid grandchild holds its pipes', requires(!which('setsid', env) && 'setsid is not installed'), async () => {
    // The grandchild leaves the process group, so only the grace period ends the wait for its pipes.
    const result = await runProcess({
      bin: '/bin/sh',
      args: ['-c', 'setsid sleep 30 & echo $!'],
      cwd: await tempDir(),
      env,
      timeoutMs: 300,
      graceMs: 1000,
    });
    const grandchild = Number(result.stdout.trim());
    if (grandchild > 0) process.kill(grandchild, 'SIGKILL');
    assert.equal(result.exitCode, 0);
    assert.equal(result.timedOut, false);
  });
});

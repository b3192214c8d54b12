/** Processes found by a variable of their environment, read from /proc whatever its size. */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { processesTaggedWith, readProcFile } from '../../../core/process/tagged-processes.ts';

const linux = process.platform === 'linux';

describe('processesTaggedWith', { skip: !linux && 'needs /proc' }, () => {
  it('finds a process by name=value after a large environment, and not by a part of the value', async () => {
    const tag = randomBytes(8).toString('hex');
    // The tag after 200 KiB of other variables: past any first read of the file.
    const child = spawn('sleep', ['30'], { env: { BIG1: 'x'.repeat(100 * 1024), BIG2: 'y'.repeat(100 * 1024), SV_TEST_TAG: tag, PATH: process.env.PATH }, stdio: 'ignore' });
    await new Promise((resolve) => child.once('spawn', resolve));
    try {
      // The environment is the new program's once exec is done: wait for it.
      for (let i = 0; i < 100 && !readProcFile(`/proc/${child.pid}/environ`)?.includes('SV_TEST_TAG'); i++) await new Promise((r) => setTimeout(r, 10));
      assert.deepEqual(processesTaggedWith('SV_TEST_TAG', tag), [child.pid]);
      assert.deepEqual(processesTaggedWith('SV_TEST_TAG', tag.slice(0, 8)), []);
      assert.deepEqual(processesTaggedWith('TEST_TAG', tag), []);
      assert.equal(readProcFile(`/proc/${child.pid}/environ`)!.length > 200 * 1024, true);
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('reads nothing of a process that is not there', () => {
    assert.equal(readProcFile('/proc/0/environ'), null);
  });
});

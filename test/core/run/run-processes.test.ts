import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { describe, it } from 'node:test';
import { endRunProcesses } from '../../../core/run/run-processes.ts';
import { processesTaggedWith, running } from '../../../core/process/tagged-processes.ts';
import { until } from '../../helpers/processes.ts';

const linux = process.platform === 'linux';

function sleeper(env: Record<string, string | undefined>): number {
  const child = spawn('sleep', ['30'], { detached: true, stdio: 'ignore', env });
  child.unref();
  return child.pid!;
}

describe("ending a run's processes", () => {
  it('ends a process that carries the run id, even outside any recorded group (a setsid daemon)', { skip: !linux }, async () => {
    const pid = sleeper({ ...process.env, SUPERVISOR_RUN_ID: 'run-a' });
    const ended = await endRunProcesses('run-a', [], 1000);
    assert.deepEqual(ended.signalled, [pid]);
    assert.deepEqual(ended.remaining, []);
    assert.equal(running(pid), false);
  });

  it('leaves alone a recorded group that no longer holds a process of the run (its number was reused)', { skip: !linux }, async () => {
    const other = sleeper({ ...process.env, SUPERVISOR_RUN_ID: 'someone-else' });
    try {
      const ended = await endRunProcesses('run-b', [other], 1000);
      assert.deepEqual(ended.signalled, []);
      assert.equal(running(other), true);
    } finally {
      process.kill(-other, 'SIGKILL');
    }
  });

  it('ends a recorded group that still holds a process of the run', { skip: !linux }, async () => {
    const leader = sleeper({ ...process.env, SUPERVISOR_RUN_ID: 'run-c' });
    const ended = await endRunProcesses('run-c', [leader], 1000);
    assert.ok(ended.signalled.includes(-leader));
    assert.equal(running(leader), false);
  });

  it('ends a recorded group whose leader dropped the run id while a member kept it', { skip: !linux }, async () => {
    const env = { PATH: process.env.PATH };
    const child = spawn('sh', ['-c', 'SUPERVISOR_RUN_ID=run-d sleep 30 & wait'], { detached: true, stdio: 'ignore', env });
    child.unref();
    const leader = child.pid!;
    await until(() => processesTaggedWith('SUPERVISOR_RUN_ID', 'run-d').length > 0, 5000, 'the tagged member to start');
    const [member] = processesTaggedWith('SUPERVISOR_RUN_ID', 'run-d');
    assert.ok(member, 'the tagged member started');
    const ended = await endRunProcesses('run-d', [leader], 1000);
    assert.ok(ended.signalled.includes(-leader), JSON.stringify(ended));
    assert.equal(running(leader), false);
    assert.equal(running(member), false);
  });
});

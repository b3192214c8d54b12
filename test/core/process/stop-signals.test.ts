import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runProcess } from '../../../core/process/run-process.ts';
import { onStopSignal, stopExitCode, type StopSignal } from '../../../core/process/stop-signals.ts';
import { tempDir } from '../../helpers/git-repo.ts';

const env = { PATH: process.env.PATH };

describe('stop signals', () => {
  it('give 130 for Ctrl-C, 129 for a closed terminal, 143 for SIGTERM', () => {
    assert.deepEqual([stopExitCode('SIGINT'), stopExitCode('SIGHUP'), stopExitCode('SIGTERM'), stopExitCode(undefined)], [130, 129, 143, 130]);
  });

  for (const signal of ['SIGINT', 'SIGHUP', 'SIGTERM'] as const) {
    it(`${signal} reaches the one handler with its name, and ends the process groups that have no abort signal of their own`, async () => {
      const seen: StopSignal[] = [];
      const stop = onStopSignal((s) => seen.push(s));
      try {
        let started!: () => void;
        const spawned = new Promise<void>((r) => (started = r));
        // A packer's or the commit step's git: nothing would stop it but the stop signal.
        const child = runProcess({ bin: '/bin/sh', args: ['-c', 'sleep 30'], cwd: await tempDir(), env, onSpawn: () => started() });
        await spawned;
        process.kill(process.pid, signal);
        const result = await child;
        assert.deepEqual(seen, [signal]);
        assert.equal(result.signal, 'SIGTERM');
      } finally {
        stop();
      }
    });
  }

  it('reports the pid and process group of what it starts', async () => {
    let spawned: { pid: number; pgid: number } | undefined;
    const result = await runProcess({ bin: '/bin/sh', args: ['-c', 'ps -o pgid= -p $$'], cwd: await tempDir(), env, onSpawn: (s) => (spawned = s) });
    assert.ok(spawned);
    assert.equal(spawned.pgid, spawned.pid);
    assert.equal(Number(result.stdout.trim()), spawned.pgid);
  });
});

import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { describe, it } from 'node:test';
import { launch, runningLauncher } from '../../../core/process/launcher.ts';
import { runProcess } from '../../../core/process/run-process.ts';
import { tempDir } from '../../helpers/git-repo.ts';
import { until } from '../../helpers/processes.ts';
import { requires } from '../../helpers/requires.ts';

// A file of its own: it leaves this process without a launcher.
const linux = requires(process.platform !== 'linux' && 'the launcher runs on Linux only');
const PATH = process.env.PATH ?? '/usr/bin:/bin';

describe('launcher without its folder', () => {
  it('retires when its output folder is gone (a /tmp cleaner), finishes what runs, and later commands spawn', linux, async () => {
    const cwd = await tempDir();
    const running = launch({ bin: '/bin/sh', args: ['-c', 'sleep 0.3; echo still'], cwd, env: { PATH } });
    const folder = runningLauncher()?.dir;
    assert.ok(running && folder);
    rmSync(folder, { recursive: true, force: true });
    assert.equal(launch({ bin: 'true', args: [], cwd, env: { PATH } }), null, 'no command through a launcher without its folder');
    const spawned = await runProcess({ bin: 'echo', args: ['spawned'], cwd, env: { PATH }, viaLauncher: true });
    assert.equal(spawned.stdout, 'spawned\n');
    const result = await running;
    assert.equal(result.exitCode, null, 'its output went with the folder: said, not taken for an empty answer');
    assert.match(result.spawnError ?? '', /could not be kept/);
  });

  /** A process (`setup` its first lines) whose launcher runs a sleep; its launcher's folder once it is there. */
  async function processWithLauncher(setup = ''): Promise<{ child: ChildProcess; folder: string }> {
    const cwd = await tempDir();
    const url = (path: string) => JSON.stringify(new URL(path, import.meta.url).href);
    const script = `
      import { launch, runningLauncher } from ${url('../../../core/process/launcher.ts')};
      ${setup}
      launch({ bin: 'sleep', args: ['30'], cwd: ${JSON.stringify(cwd)}, env: { PATH: ${JSON.stringify(PATH)} } });
      console.log(runningLauncher().dir);
      setInterval(() => {}, 1000);`;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout!.on('data', (chunk) => (out += chunk));
    await until(() => out.includes('\n'), 20_000).catch((error) => {
      child.kill('SIGKILL');
      throw error;
    });
    const folder = out.trim();
    assert.ok(existsSync(folder), folder);
    return { child, folder };
  }

  it('is removed by its shell when this process is killed and no exit handler runs', linux, async () => {
    const { child, folder } = await processWithLauncher();
    child.kill('SIGKILL');
    await until(() => !existsSync(folder), 5_000);
  });

  it('is removed as soon as a stop signal ends its shell, while this process lives on', linux, async () => {
    // As a command's stop handler does: the signal is taken, and the launcher's group is ended with SIGTERM.
    const stopSignals = JSON.stringify(new URL('../../../core/process/stop-signals.ts', import.meta.url).href);
    const { child, folder } = await processWithLauncher(`import { onStopSignal } from ${stopSignals}; onStopSignal(() => {});`);
    try {
      child.kill('SIGTERM');
      await until(() => !existsSync(folder), 5_000);
      assert.equal(child.exitCode, null, 'removed by the process that took the signal, not by its exit');
    } finally {
      child.kill('SIGKILL');
    }
  });
});

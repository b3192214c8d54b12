import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
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

  it('is removed by its shell when this process is killed and no exit handler runs', linux, async () => {
    const cwd = await tempDir();
    const launcherUrl = new URL('../../../core/process/launcher.ts', import.meta.url).href;
    const script = `
      import { launch, runningLauncher } from ${JSON.stringify(launcherUrl)};
      launch({ bin: 'sleep', args: ['30'], cwd: ${JSON.stringify(cwd)}, env: { PATH: ${JSON.stringify(PATH)} } });
      console.log(runningLauncher().dir);
      setInterval(() => {}, 1000);`;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    await until(() => out.includes('\n'), 20_000);
    const folder = out.trim();
    assert.ok(existsSync(folder), folder);
    child.kill('SIGKILL');
    await until(() => !existsSync(folder), 5_000);
  });

  it('is removed as soon as a stop signal ends its shell, while this process lives on', linux, async () => {
    const cwd = await tempDir();
    const url = (path: string) => JSON.stringify(new URL(path, import.meta.url).href);
    // As a command's stop handler does: the signal is taken, and the launcher's group is ended with SIGTERM.
    const script = `
      import { launch, runningLauncher } from ${url('../../../core/process/launcher.ts')};
      import { onStopSignal } from ${url('../../../core/process/stop-signals.ts')};
      onStopSignal(() => {});
      launch({ bin: 'sleep', args: ['30'], cwd: ${JSON.stringify(cwd)}, env: { PATH: ${JSON.stringify(PATH)} } });
      console.log(runningLauncher().dir);
      setInterval(() => {}, 1000);`;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      let out = '';
      child.stdout.on('data', (chunk) => (out += chunk));
      await until(() => out.includes('\n'), 20_000);
      const folder = out.trim();
      assert.ok(existsSync(folder), folder);
      child.kill('SIGTERM');
      await until(() => !existsSync(folder), 5_000);
      assert.equal(child.exitCode, null, 'removed by the process that took the signal, not by its exit');
    } finally {
      child.kill('SIGKILL');
    }
  });
});

import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { describe, it } from 'node:test';
import { launch, runningLauncher } from '../../../core/process/launcher.ts';
import { runProcess } from '../../../core/process/run-process.ts';
import { tempDir } from '../../helpers/git-repo.ts';
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
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { launch, runningLauncher } from '../../../core/process/launcher.ts';
import { endLiveProcessGroups } from '../../../core/process/process-groups.ts';
import { running } from '../../../core/process/tagged-processes.ts';
import { runProcess } from '../../../core/process/run-process.ts';
import { tempDir } from '../../helpers/git-repo.ts';
import { requires } from '../../helpers/requires.ts';

// A file of its own: it leaves this process without a launcher.
const linux = requires(process.platform !== 'linux' && 'the launcher runs on Linux only');
const PATH = process.env.PATH ?? '/usr/bin:/bin';

describe('launcher and a stop signal', () => {
  it('ends a running command with the launcher group, fails it, and lets later commands spawn', linux, async () => {
    const cwd = await tempDir();
    const pending = launch({ bin: 'sleep', args: ['30'], cwd, env: { PATH } });
    assert.ok(pending);
    await new Promise((r) => setTimeout(r, 100));
    const shell = runningLauncher()?.pid;
    assert.ok(shell !== undefined && running(shell));
    endLiveProcessGroups({ exceptAbortable: true });
    const result = await pending;
    assert.equal(result.exitCode, null);
    assert.match(result.spawnError ?? '', /launcher/);
    assert.equal(launch({ bin: 'true', args: [], cwd, env: { PATH } }), null);
    const spawned = await runProcess({ bin: 'true', args: [], cwd, env: { PATH }, viaLauncher: true });
    assert.equal(spawned.exitCode, 0);
  });
});

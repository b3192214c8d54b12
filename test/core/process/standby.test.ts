/**
 * A standby (core/process/standby.ts) joins its groups when started and becomes the command it
 * is told, as a spawn through the cgroup prefix would run it. The "groups" here are folders
 * with a plain cgroup.procs file: the join step writes its pid into it as into a real group,
 * so what joined and when can be read back, as any user (real cgroups: run-processes tests).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { joiningCommand } from '../../../core/process/cgroup.ts';
import { runProcess, type RunProcessOptions } from '../../../core/process/run-process.ts';
import { dropStandby, startStandby } from '../../../core/process/standby.ts';
import { running } from '../../../core/process/tagged-processes.ts';
import { tempDir } from '../../helpers/git-repo.ts';
import { until } from '../../helpers/processes.ts';
import { requires } from '../../helpers/requires.ts';

const linux = requires(process.platform !== 'linux' && 'standbys run on Linux only');
const PATH = process.env.PATH ?? '/usr/bin:/bin';

/** Two fake groups and the prefix that joins them. */
async function groups() {
  const dirs = [await tempDir('sv-group-'), await tempDir('sv-group-')];
  for (const dir of dirs) writeFileSync(join(dir, 'cgroup.procs'), '');
  return { dirs, prefix: joiningCommand(dirs, 'exec "$@"') };
}

const joined = (dir: string) => readFileSync(join(dir, 'cgroup.procs'), 'utf8').trim();

/** runProcess through `prefix`, with the pid it started. */
async function started(prefix: string[], options: Omit<RunProcessOptions, 'cgroupPrefix' | 'onSpawn'>) {
  let pid = 0;
  const result = await runProcess({ ...options, cgroupPrefix: prefix, onSpawn: (s) => void (pid = s.pid) });
  return { ...result, pid };
}

describe('standby', () => {
  it('joins its groups when started, then becomes the command: the same pid, exactly the environment given, in the folder given', linux, async () => {
    const { dirs, prefix } = await groups();
    startStandby({ prefix, dirs });
    await until(() => dirs.every((dir) => joined(dir) !== ''));
    const waiting = Number(joined(dirs[0]!));
    assert.equal(joined(dirs[1]!), String(waiting), 'one process joined both');
    const cwd = await tempDir();
    const env = { PATH, A: 'two words', B: "it's $HOME `x`\nline" };
    const printed = await started(prefix, { bin: 'env', args: ['-0'], cwd, env });
    assert.equal(printed.exitCode, 0, printed.stderr);
    assert.equal(printed.pid, waiting, 'the command is the process that joined the groups');
    assert.deepEqual(printed.stdout.split('\0').filter(Boolean).sort(), Object.entries(env).map(([k, v]) => `${k}=${v}`).sort());
    assert.equal(joined(dirs[0]!), String(waiting), 'it did not join again');
    startStandby({ prefix, dirs });
    await until(() => joined(dirs[0]!) !== String(waiting));
    const where = await started(prefix, { bin: 'pwd', args: ['-P'], cwd, env: { PATH } });
    assert.equal(where.stdout.trim(), realpathSync(cwd));
  });

  it('passes every argument exactly, stdin from the text given or /dev/null, and the exit code or signal', linux, async () => {
    const { dirs, prefix } = await groups();
    const cwd = await tempDir();
    const args = ["it's", 'a "b"', '$(touch pwned)', '`touch pwned`', 'x; touch pwned', 'new\nline', ' ', '', '*', '-n', 'A=b'];
    startStandby({ prefix, dirs });
    const printed = await started(prefix, { bin: 'printf', args: ['%s\\0', ...args], cwd, env: { PATH } });
    assert.deepEqual(printed.stdout.split('\0').slice(0, -1), args);
    assert.equal(existsSync(join(cwd, 'pwned')), false, 'no word was run by the shell');
    startStandby({ prefix, dirs });
    const read = await started(prefix, { bin: '/bin/sh', args: ['-c', 'cat; exit 3'], cwd, env: { PATH }, stdin: 'in\nput' });
    assert.deepEqual([read.stdout, read.exitCode], ['in\nput', 3]);
    startStandby({ prefix, dirs });
    const none = await started(prefix, { bin: 'readlink', args: ['/proc/self/fd/0'], cwd, env: { PATH } });
    assert.equal(none.stdout.trim(), '/dev/null', 'no stdin text: /dev/null, as spawn gives');
    startStandby({ prefix, dirs });
    const killed = await started(prefix, { bin: '/bin/sh', args: ['-c', 'kill -TERM $$'], cwd, env: { PATH } });
    assert.deepEqual([killed.exitCode, killed.signal], [null, 'SIGTERM']);
  });

  it('is left waiting when the command cannot start from it, which then spawns as before; a dropped standby exits', linux, async () => {
    const { dirs, prefix } = await groups();
    startStandby({ prefix, dirs });
    await until(() => joined(dirs[0]!) !== '');
    const waiting = Number(joined(dirs[0]!));
    const missing = await started(prefix, { bin: 'env', args: [], cwd: join(await tempDir(), 'gone'), env: { PATH } });
    assert.equal(missing.notFound, true, 'a missing folder is reported as spawn reports it');
    const absent = await started(prefix, { bin: 'no-such-program-here', args: [], cwd: await tempDir(), env: { PATH } });
    assert.equal(absent.notFound, true);
    assert.ok(running(waiting), 'the standby still waits');
    await dropStandby(prefix);
    assert.equal(running(waiting), false, 'dropped: gone once dropStandby is done');
    const spawned = await started(prefix, { bin: 'true', args: [], cwd: await tempDir(), env: { PATH } });
    assert.equal(spawned.exitCode, 0);
    assert.notEqual(spawned.pid, waiting);
    assert.equal(joined(dirs[0]!), String(spawned.pid), 'spawned through the prefix: it joined on its way');
  });

  it('is not taken once it has died', linux, async () => {
    const { dirs, prefix } = await groups();
    startStandby({ prefix, dirs });
    await until(() => joined(dirs[0]!) !== '');
    const waiting = Number(joined(dirs[0]!));
    process.kill(waiting, 'SIGKILL');
    await until(() => !running(waiting));
    const spawned = await started(prefix, { bin: 'true', args: [], cwd: await tempDir(), env: { PATH } });
    assert.deepEqual([spawned.exitCode, spawned.signal], [0, null]);
    assert.notEqual(spawned.pid, waiting);
  });

  it('neither keeps this process alive nor outlives it', linux, async () => {
    const { dirs } = await groups();
    const script = `import { joiningCommand } from ${JSON.stringify(new URL('../../../core/process/cgroup.ts', import.meta.url).href)};
      import { startStandby } from ${JSON.stringify(new URL('../../../core/process/standby.ts', import.meta.url).href)};
      const dirs = ${JSON.stringify(dirs)};
      startStandby({ prefix: joiningCommand(dirs, 'exec "$@"'), dirs });`;
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 20_000 });
    assert.equal(child.status, 0, child.stderr);
    await until(() => joined(dirs[0]!) !== '');
    const waiting = Number(joined(dirs[0]!));
    await until(() => !running(waiting));
  });
});

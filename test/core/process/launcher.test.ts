import assert from 'node:assert/strict';
import { existsSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { launch, runningLauncher } from '../../../core/process/launcher.ts';
import { runProcess } from '../../../core/process/run-process.ts';
import { processTree, running } from '../../../core/process/tagged-processes.ts';
import { tempDir } from '../../helpers/git-repo.ts';
import { requires } from '../../helpers/requires.ts';

const linux = requires(process.platform !== 'linux' && 'the launcher runs on Linux only');
const PATH = process.env.PATH ?? '/usr/bin:/bin';

function launched(options: Parameters<typeof launch>[0]) {
  const result = launch(options);
  assert.ok(result, 'the launcher took the command');
  return result;
}

describe('launcher', () => {
  it('runs a command in the folder given with exactly the environment given, nothing of the shell added', linux, async () => {
    const dir = await tempDir();
    const env = { PATH, A: 'two words', B: "it's $HOME `x`\nline" };
    const printed = await launched({ bin: 'env', args: ['-0'], cwd: dir, env });
    assert.equal(printed.exitCode, 0, printed.stderr);
    assert.deepEqual(printed.stdout.split('\0').filter(Boolean).sort(), Object.entries(env).map(([k, v]) => `${k}=${v}`).sort());
    const where = await launched({ bin: 'pwd', args: ['-P'], cwd: dir, env: { PATH } });
    assert.equal(where.stdout.trim(), realpathSync(dir));
  });

  it('passes every argument exactly, whatever quotes, newlines or shell syntax it holds', linux, async () => {
    const cwd = await tempDir();
    const args = ["it's", 'a "b"', '$(touch pwned)', '`touch pwned`', 'x; touch pwned', 'new\nline', '\\\\', ' ', '', "'", '*', '-n', 'A=b'];
    const printed = await launched({ bin: 'printf', args: ['%s\\0', ...args], cwd, env: { PATH, X: '$(touch pwned)' } });
    assert.equal(printed.exitCode, 0, printed.stderr);
    assert.deepEqual(printed.stdout.split('\0').slice(0, -1), args);
    assert.equal(existsSync(join(cwd, 'pwned')), false, 'no word was run by the shell');
  });

  it('writes the stdin text, keeps stdout and stderr apart and returns the exit code', linux, async () => {
    const result = await launched({ bin: '/bin/sh', args: ['-c', 'cat; echo oops >&2; exit 3'], cwd: await tempDir(), env: { PATH }, stdin: 'in\0put\n' });
    assert.equal(result.exitCode, 3);
    assert.equal(result.stdout, 'in\0put\n');
    assert.equal(result.stderr, 'oops\n');
    assert.deepEqual(result.truncated, { stdout: false, stderr: false });
    const closed = await launched({ bin: '/bin/sh', args: ['-c', 'cat; echo done'], cwd: await tempDir(), env: { PATH } });
    assert.equal(closed.stdout, 'done\n', 'no stdin text: stdin is empty, not the launcher\'s');
  });

  it('keeps output up to the cap and says it was cut', linux, async () => {
    const result = await launched({ bin: '/bin/sh', args: ['-c', 'printf %0100d 0'], cwd: await tempDir(), env: { PATH }, maxOutputBytes: 10 });
    assert.equal(result.stdout, '0'.repeat(10));
    assert.equal(result.truncated.stdout, true);
  });

  it('ends the command and what it started when the timeout passes', linux, async () => {
    const result = await launched({ bin: '/bin/sh', args: ['-c', 'sleep 30 & echo $!; wait'], cwd: await tempDir(), env: { PATH }, timeoutMs: 300, graceMs: 500 });
    assert.equal(result.timedOut, true);
    assert.notEqual(result.exitCode, 0);
    const sleeper = Number(result.stdout.trim());
    assert.ok(sleeper > 0);
    // Signalled with the shell; it may take a moment to be scheduled and die.
    for (let wait = 0; wait < 40 && running(sleeper); wait++) await new Promise((r) => setTimeout(r, 50));
    assert.equal(running(sleeper), false, 'the sleep the command started is gone too');
  });

  it('ends the command when its abort signal fires, and says it was interrupted', linux, async () => {
    const controller = new AbortController();
    const pending = launched({ bin: 'sleep', args: ['30'], cwd: await tempDir(), env: { PATH }, signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    const result = await pending;
    assert.equal(result.interrupted, true);
    assert.equal(result.exitCode, 128 + 15, 'a signal shows as 128 + its number, as a shell says it');
  });

  it('reports a folder that does not exist as not found, and runs nothing', linux, async () => {
    const missing = `${await tempDir()}/gone`;
    const result = await launched({ bin: 'pwd', args: [], cwd: missing, env: { PATH } });
    assert.equal(result.notFound, true);
    assert.equal(result.exitCode, null);
    assert.match(result.spawnError ?? '', /no such folder/);
  });

  it('leaves to spawn what it cannot say to the shell exactly, and runProcess then spawns it', linux, async () => {
    const cwd = await tempDir();
    assert.equal(launch({ bin: 'env', args: ['a\0b'], cwd, env: { PATH } }), null, 'a NUL');
    assert.equal(launch({ bin: 'env', args: ['x'.repeat(200_000)], cwd, env: { PATH } }), null, 'an argument near the limit');
    assert.equal(launch({ bin: 'no-such-program-here', args: [], cwd, env: { PATH } }), null, 'not on PATH: spawn reports it');
    const odd = { PATH, '-u': 'x' };
    assert.equal(launch({ bin: 'env', args: [], cwd, env: odd }), null, 'a variable name env or the shell would misread');
    const spawned = await runProcess({ bin: 'env', args: [], cwd, env: odd, viaLauncher: true });
    assert.equal(spawned.exitCode, 0);
    assert.match(spawned.stdout, /^-u=x$/m);
  });

  it('runs commands side by side: one waits for a file the next one makes', linux, async () => {
    const cwd = await tempDir();
    const waiting = launched({ bin: '/bin/sh', args: ['-c', 'while [ ! -e go ]; do sleep 0.05; done; echo went'], cwd, env: { PATH }, timeoutMs: 20_000 });
    const making = launched({ bin: 'touch', args: ['go'], cwd, env: { PATH } });
    const [waited, made] = await Promise.all([waiting, making]);
    assert.equal(made.exitCode, 0);
    assert.equal(waited.timedOut, false);
    assert.equal(waited.stdout, 'went\n');
  });

  it('collects every subshell it started: none is left a zombie', linux, async () => {
    const cwd = await tempDir();
    for (let i = 0; i < 12; i++) assert.equal((await launched({ bin: 'true', args: [], cwd, env: { PATH } })).exitCode, 0);
    const shell = runningLauncher()!.pid;
    let children: number[] = [];
    for (let wait = 0; wait < 40; wait++) {
      children = processTree(shell).slice(1);
      if (children.length === 0) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.deepEqual(children, [], 'the launcher has no children (zombies included) once its jobs are done');
  });
});

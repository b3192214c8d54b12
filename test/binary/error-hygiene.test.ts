/**
 * Issue 13 item 10, through the built binary: a full disk and a read-only repository are named
 * with their path and cause (not "INTERNAL … a bug") and the CLI's output written so far is
 * kept; a malformed result.json is skipped with a notice; out-of-range timeouts and
 * prototype keys are refused.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { makeRepo, tempDir } from '../helpers/git-repo.ts';
import { binarySuite, makeSandbox, runProgram, type Sandbox } from './binary.ts';
import { requires } from '../helpers/requires.ts';

// By absolute path: the sandbox's PATH holds only a few tools.
const bwrapPath = spawnSync('sh', ['-c', 'command -v bwrap'], { encoding: 'utf8' }).stdout.trim();
const bwrap = bwrapPath && spawnSync(bwrapPath, ['--dev-bind', '/', '/', 'true']).status === 0 ? bwrapPath : undefined;
const noBwrap = requires(!bwrap && 'bwrap cannot run here: the full-disk and read-only cases need it to mount a small tmpfs / a read-only bind');

describe('errors that are not bugs, from the binary', binarySuite(), () => {
  let box: Sandbox;
  before(async () => {
    box = await makeSandbox();
  });

  it('refuses timeouts the timer cannot honour and prototype keys, like the role schema does', async () => {
    const repo = await makeRepo();
    for (const value of ['2200000', '0.0001', '0', 'abc']) {
      const run = await box.run(['run', 'reviewer', '--cli', 'replay', '--task', 'x', '--timeout', value], { cwd: repo });
      assert.equal(run.code, 2, `--timeout ${value}: ${run.stderr}`);
      assert.match(run.stderr, new RegExp(`--timeout expects a number >= 1 and <= 86400, got "${value}"`));
    }
    for (const key of ['__proto__', 'constructor', 'prototype']) {
      const run = await box.run(['run', 'reviewer', '--cli', 'replay', '--task', 'x', '--context', `${key}=x`], { cwd: repo });
      assert.equal(run.code, 2, run.stderr);
      assert.match(run.stderr, new RegExp(`--context ${key}=...: "${key}" cannot be a key`));
    }
    // The role file and the command line share the ranges: 0 retries is fine in both.
    await mkdir(join(repo, '.supervisor', 'roles'), { recursive: true });
    await writeFile(join(repo, '.supervisor', 'roles', 'once.yaml'), 'extends: reviewer\ndescription: Reviews once.\nconfig:\n  max_retries: 0\n');
    const once = await box.run(['run', 'once', '--cli', 'replay', '--task', 'x', '--json'], { cwd: repo });
    assert.equal(once.code, 0, once.stderr);
    await writeFile(join(repo, '.supervisor', 'roles', 'tiny.yaml'), 'extends: reviewer\ndescription: Too short.\nconfig:\n  timeout: 0.0001\n');
    const tiny = await box.run(['run', 'tiny', '--cli', 'replay', '--task', 'x'], { cwd: repo });
    assert.equal(tiny.code, 2);
    assert.match(tiny.stderr, /\/config\/timeout: must be at least 1/);
  });

  it('skips a result.json without metrics with a notice in runs list and runs show', async () => {
    const repo = await makeRepo();
    const run = await box.run(['run', 'reviewer', '--cli', 'replay', '--task', 'x', '--json'], { cwd: repo });
    assert.equal(run.code, 0, run.stderr);
    const runDir = (JSON.parse(run.stdout) as { run_dir: string }).run_dir;
    const result = JSON.parse(await readFile(join(runDir, 'result.json'), 'utf8')) as Record<string, unknown>;
    delete result.metrics;
    await writeFile(join(runDir, 'result.json'), JSON.stringify(result));
    const list = await box.run(['runs', 'list'], { cwd: repo });
    assert.equal(list.code, 0, list.stderr);
    assert.match(list.stderr, /notice: .*result\.json is malformed \(metrics: /);
    const show = await box.run(['runs', 'show', 'last'], { cwd: repo });
    assert.equal(show.code, 0, show.stderr);
    assert.match(show.stderr, /result\.json is malformed/);
    assert.match(show.stdout, /PASS  reviewer via replay/);
    assert.doesNotMatch(list.stderr + show.stderr, /INTERNAL|a bug in supervisor/);
  });

  it('a full disk names the path and the cause, and keeps the CLI output written so far', noBwrap, async () => {
    const repo = await makeRepo();
    const runs = join(repo, '.supervisor', 'runs');
    await mkdir(runs, { recursive: true });
    const reply = join(await tempDir(), 'big.md');
    await writeFile(reply, 'x'.repeat(400_000));
    // .supervisor/runs is a 700 KB tmpfs: the copied reply fits, the CLI's echo of it does not.
    const script = `"${box.binary}" run reviewer --cli replay --task x --retries 0; echo "exit=$?"; wc -c "${runs}"/*/attempt-1.stdout`;
    const run = await runProgram(bwrap!, ['--dev-bind', '/', '/', '--size', '700000', '--tmpfs', runs, join(box.path, 'sh'), '-c', script], {
      cwd: repo,
      env: box.env({ SUPERVISOR_REPLAY: reply }),
    });
    assert.match(run.stdout, /exit=2/, run.stderr);
    assert.match(run.stderr, /error \[FILE_SYSTEM\]: Cannot \w+ \/\S+\/\.supervisor\/runs\/\S+: no space left on the device \(ENOSPC\)/);
    assert.doesNotMatch(run.stderr, /INTERNAL|a bug in supervisor/);
    const kept = Number(/(\d+) \S+attempt-1\.stdout/.exec(run.stdout)?.[1]);
    assert.ok(kept > 100_000, `the output that fitted is kept (${kept} bytes)`);
  });

  it('a read-only repository names the path and the cause', noBwrap, async () => {
    const repo = await makeRepo();
    await mkdir(join(repo, '.supervisor', 'runs'), { recursive: true });
    const run = await runProgram(bwrap!, ['--dev-bind', '/', '/', '--ro-bind', repo, repo, box.binary, 'run', 'reviewer', '--cli', 'replay', '--task', 'x'], {
      cwd: repo,
      env: box.env(),
    });
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /error \[FILE_SYSTEM\]: Cannot \w+ \/\S+: the file system is read-only \(EROFS\)/);
    assert.doesNotMatch(run.stderr, /INTERNAL|a bug in supervisor/);
    assert.deepEqual(readdirSync(join(repo, '.supervisor', 'runs')), []);
  });
});

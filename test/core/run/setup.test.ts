/**
 * Worktree set-up (issue 20, item 1): copies from the user's checkout stay inside it, what
 * set-up leaves is recorded and never committed, a failing command ends the run SETUP_FAILED
 * before any CLI starts; a role's `setup` and `--setup` run in `run`'s new worktree.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { locateWorktree } from '../../../core/git/bound-git.ts';
import { runRole } from '../../../core/run/run-role.ts';
import { readEvents } from '../../../core/runs/runs-store.ts';
import { setUpWorktree, type SetupSpec } from '../../../core/run/setup.ts';
import { isSupervisorError } from '../../../core/errors.ts';
import { runProcess } from '../../../core/process/run-process.ts';
import { assertCheckoutUnchanged, snapshotCheckout } from '../../helpers/checkout.ts';
import { git, makeRepo, tempDir } from '../../helpers/git-repo.ts';
import { answer, asCall, editing, envelope, harness } from './_fakes.ts';

async function worktreeOf(repo: string) {
  const path = join(await tempDir('sv-setup-wt-'), 'wt');
  git(repo, 'worktree', 'add', '-q', '--detach', path, 'HEAD');
  return locateWorktree(repo, path);
}

const spec = (fields: Partial<SetupSpec>): SetupSpec => ({ commands: [], copy: [], timeoutMs: 30_000, ...fields });

describe('worktree set-up', () => {
  it('copies untracked files from the checkout, never from outside it, through a symlink or into .git', async () => {
    const repo = await makeRepo({ 'README.md': '# r\n', '.gitignore': '.env\n' });
    const outside = await tempDir('sv-outside-');
    await writeFile(join(outside, 'secret.txt'), 'outside\n');
    await writeFile(join(repo, '.env'), 'A=1\n');
    await mkdir(join(repo, 'conf'));
    await writeFile(join(repo, 'conf', 'local.json'), '{}\n');
    await symlink(outside, join(repo, 'linked'));
    const worktree = await worktreeOf(repo);
    const result = await setUpWorktree({ spec: spec({ copy: ['.env', 'conf', '../x', '/etc/passwd', 'linked/secret.txt', '.git/config', 'absent.txt'] }), worktree, repoRoot: repo, env: process.env, graceMs: 100, runProcess });
    assert.ok(result.ok);
    assert.deepEqual(result.copied, ['.env', 'conf']);
    assert.deepEqual(result.missing, ['../x', '/etc/passwd', 'linked/secret.txt', '.git/config', 'absent.txt']);
    assert.equal(readFileSync(join(worktree.path, '.env'), 'utf8'), 'A=1\n');
    assert.ok(existsSync(join(worktree.path, 'conf', 'local.json')));
    assert.ok(!existsSync(join(worktree.path, 'linked')));
    assert.deepEqual(result.excludePaths, ['conf/'], 'the ignored .env is not listed; the untracked folder is');
  });

  it('records what the commands left (untracked folders, changed tracked files) and reports a failure with the end of its output', async () => {
    const repo = await makeRepo({ 'README.md': '# r\n', 'lock.json': '{}\n' });
    const worktree = await worktreeOf(repo);
    const done = await setUpWorktree({ spec: spec({ commands: ['mkdir -p deps/a && echo x > deps/a/lib.js', 'echo changed > lock.json'] }), worktree, repoRoot: repo, env: process.env, graceMs: 100, runProcess });
    assert.ok(done.ok);
    assert.deepEqual([...done.excludePaths].sort(), ['deps/', 'lock.json']);
    const failed = await setUpWorktree({ spec: spec({ commands: ['true', 'echo half way; echo no registry >&2; exit 7', 'touch never'] }), worktree, repoRoot: repo, env: process.env, graceMs: 100, runProcess });
    assert.ok(!failed.ok);
    assert.equal(failed.command, 'echo half way; echo no registry >&2; exit 7');
    assert.equal(failed.exitCode, 7);
    assert.match(failed.tail, /half way\nno registry/);
    assert.ok(!existsSync(join(worktree.path, 'never')), 'the commands after a failure do not run');
  });
});

describe('run with set-up', () => {
  it("runs the role's setup and --setup in the new worktree before the CLI; the gate sees what set-up made; the commit holds only the CLI's change", async () => {
    const repo = await makeRepo({ 'README.md': '# r\n' });
    const before = snapshotCheckout(repo);
    const h = harness(repo, [editing({ 'app.txt': 'the fix\n' }, envelope(answer({ status: 'SUCCESS' })))], {
      role: { setup: ['mkdir -p deps && echo lib > deps/lib.txt'] },
      run: { setup: ['echo built > build.out'], gates: ['test -f deps/lib.txt && test -f build.out'] },
    });
    const result = await runRole(...asCall(h.options));
    assert.equal(result.status, 'pass', JSON.stringify(result.issues));
    assert.deepEqual(result.files_changed, ['app.txt']);
    const files = git(repo, 'ls-tree', '-r', '--name-only', result.branch!).trim().split('\n');
    assert.deepEqual(files.sort(), ['README.md', 'app.txt']);
    const setupEvents = readEvents(result.run_dir).filter((e) => e.kind === 'setup');
    assert.deepEqual(setupEvents.filter((e) => e.step === 'command_finished').map((e) => [e.command, e.exit_code]), [['mkdir -p deps && echo lib > deps/lib.txt', 0], ['echo built > build.out', 0]]);
    const kinds = readEvents(result.run_dir).map((e) => e.kind);
    assert.ok(kinds.indexOf('setup') > -1 && kinds.indexOf('setup') < kinds.indexOf('attempt_started'), `set-up runs before the CLI: ${kinds.join(' ')}`);
    assertCheckoutUnchanged(repo, before);
  });

  it('a failing set-up ends the run SETUP_FAILED naming the command and its output; no CLI started, the worktree is gone', async () => {
    const repo = await makeRepo({ 'README.md': '# r\n' });
    const h = harness(repo, [], { run: { setup: ['echo cannot reach the registry >&2; exit 1'] } });
    let caught: unknown;
    await runRole(...asCall(h.options)).catch((error: unknown) => (caught = error));
    assert.ok(isSupervisorError(caught) && caught.code === 'SETUP_FAILED', String(caught));
    assert.equal(caught.exitCode, 2);
    assert.match(caught.message, /`echo cannot reach the registry >&2; exit 1` exited 1; the end of its output:\ncannot reach the registry/);
    assert.equal(h.calls.length, 0, 'no CLI started');
    assert.deepEqual(git(repo, 'worktree', 'list', '--porcelain').match(/^worktree /gm)?.length, 1);
  });
});

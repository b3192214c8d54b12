/**
 * Issue 27 F01 (SECURITY.md I1, I3), through the built binary: a CLI plants symbolic links in its
 * worktree's git admin folder (writable inside bwrap by design) so that our host-side commit
 * step writes through them. Our git uses an index of its own and refuses a planted admin folder:
 * the user's index and host files stay as they were, and the run does not pass.
 */
import assert from 'node:assert/strict';
import { copyFile, chmod, mkdir, readdir, writeFile } from 'node:fs/promises';
import { existsSync, readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { assertCheckoutUnchanged, snapshotCheckout } from '../helpers/checkout.ts';
import { git, makeRepo, tempDir, writeFiles } from '../helpers/git-repo.ts';
import { FAKE_BIN } from '../helpers/fake-clis.ts';
import { missingBwrap, requires } from '../helpers/requires.ts';
import { binarySuite, makeSandbox, type Sandbox } from './binary.ts';

const IMPLEMENTED = '```json\n{"status": "SUCCESS", "action_taken": "did it"}\n```\n';

interface Result {
  status: string;
  exit_code: number;
  failure: { class: string; detail: string } | null;
  branch: string | null;
}

/** The shell a hostile CLI runs in its worktree: `$ADMIN` is its git admin folder. */
const ADMIN = 'ADMIN=$(sed "s/^gitdir: //" .git); ';

/** The fakes copied into one folder that is on PATH (the sandbox shows PATH folders, not /tmp or the home). */
async function fakesFolder(reply: string): Promise<string> {
  const dir = await tempDir('sv-fakes-');
  const scripts = join(dir, 'scripts');
  await mkdir(scripts);
  for (const name of await readdir(FAKE_BIN)) if (name.endsWith('.mjs') || name === 'claude') await copyFile(join(FAKE_BIN, name), join(scripts, name));
  await writeFile(join(dir, 'claude'), `#!/bin/sh\nexec "${process.execPath}" "${join(scripts, 'claude')}" "$@"\n`);
  await chmod(join(dir, 'claude'), 0o755);
  await writeFile(join(dir, 'reply.md'), reply);
  const tools = join(dir, 'tools');
  spawnSync('mkdir', [tools]);
  for (const tool of ['bwrap', 'prlimit', 'ln']) {
    const path = spawnSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).stdout.trim();
    if (path) spawnSync('ln', ['-s', path, join(tools, tool)]);
  }
  return dir;
}

/** The user's repository with work staged in the index and a change not staged. */
async function userRepo(): Promise<string> {
  const repo = await makeRepo({ 'a.txt': 'one\n', 'b.txt': 'two\n' });
  await writeFiles(repo, { 'staged.txt': 'staged by the user\n', 'a.txt': 'edited\n' });
  git(repo, 'add', 'staged.txt');
  return repo;
}

describe('F01: our git after a CLI follows nothing it planted in the admin folder (issue 27)', binarySuite(), () => {
  let box: Sandbox;
  let fakes: string;
  before(async () => {
    box = await makeSandbox();
    fakes = await fakesFolder(`Done.\n\n${IMPLEMENTED}`);
  });

  async function run(repo: string, sh: string, sandbox: 'none' | 'bwrap', env: Record<string, string> = {}): Promise<Result> {
    const out = await box.run(['run', 'implementer', '--cli', 'claude', '--sandbox', sandbox, '--pass-env', 'FAKE_*', '--task', 'Do it', '--retries', '0', '--json'], {
      cwd: repo,
      env: { PATH: `${fakes}:${box.path}:${join(fakes, 'tools')}`, FAKE_CLI_REPLY_FILE: join(fakes, 'reply.md'), FAKE_CLI_SH: `${ADMIN}${sh}; echo work > work.txt`, ...env },
    });
    try {
      return JSON.parse(out.stdout) as Result;
    } catch {
      throw new Error(`not one JSON result (exit ${out.code}):\n${out.stdout}\n${out.stderr}`);
    }
  }

  for (const sandbox of ['none', 'bwrap'] as const) {
    it(`--sandbox ${sandbox}: an admin index linked to the user's .git/index: the user's staged work stays, the run does not pass`, requires(sandbox === 'bwrap' && missingBwrap()), async () => {
      const repo = await userRepo();
      const before = snapshotCheckout(repo);
      const staged = git(repo, 'diff', '--cached', '--name-only');
      const r = await run(repo, `rm -f "$ADMIN/index"; ln -s "${join(repo, '.git', 'index')}" "$ADMIN/index"`, sandbox);
      assert.equal(git(repo, 'diff', '--cached', '--name-only'), staged, "the user's staged work is still staged");
      assertCheckoutUnchanged(repo, before);
      assert.notEqual(r.status, 'pass');
      assert.equal(r.failure?.class, 'workspace_broken');
    });
  }

  it('--sandbox bwrap: an index or logs/HEAD linked to host paths: no host file is made or appended to', requires(missingBwrap()), async () => {
    const repo = await userRepo();
    const host = await tempDir('sv-host-');
    const made = join(host, 'made-by-cli');
    const existing = join(host, 'existing');
    await writeFile(existing, 'host file\n');
    const before = snapshotCheckout(repo);
    const r = await run(repo, `rm -f "$ADMIN/index" "$ADMIN/logs/HEAD"; ln -s "${made}" "$ADMIN/index"; ln -s "${existing}" "$ADMIN/logs/HEAD"`, 'bwrap');
    assert.ok(!existsSync(made), 'no host file was made through the planted index');
    assert.equal(readFileSync(existing, 'utf8'), 'host file\n', 'no reflog line was appended to a host file');
    assertCheckoutUnchanged(repo, before);
    assert.equal(r.failure?.class, 'workspace_broken');
  });

  it('a clean run still commits its work, and the kept worktree\'s own index says what git did (our index is copied back)', async () => {
    const repo = await userRepo();
    const out = await box.run(['run', 'implementer', '--cli', 'claude', '--task', 'Do it', '--retries', '0', '--keep-worktree', '--json'], {
      cwd: repo,
      env: { PATH: `${fakes}:${box.path}`, FAKE_CLI_REPLY_FILE: join(fakes, 'reply.md'), FAKE_CLI_SH: 'echo work > work.txt' },
    });
    const r = JSON.parse(out.stdout) as Result & { worktree: { path: string } };
    assert.equal(r.status, 'pass', out.stderr);
    assert.ok(r.branch);
    assert.equal(git(r.worktree.path, 'status', '--porcelain'), '', 'the kept worktree is clean for git run there');
  });

  it('D3: a CLI that writes refs of its own into the user\'s repository (cline\'s checkpoints): escaped_worktree, the ref named', async () => {
    const repo = await userRepo();
    const r = await run(repo, `git -C "${repo}" update-ref refs/cline/checkpoints/s1/1 HEAD`, 'none');
    assert.equal(r.failure?.class, 'escaped_worktree');
    assert.match(r.failure!.detail, /refs created: refs\/cline\/checkpoints\/s1\/1/);
  });
});

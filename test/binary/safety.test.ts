/**
 * Issue 13, items 1, 2, 3 and 8, through the built binary: hostile fake CLIs (the real
 * claude envelope, printed after doing the hostile thing) against real repositories, with
 * the user's checkout compared byte for byte and no process left behind.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { chmod, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { assertCheckoutUnchanged, snapshotCheckout } from '../helpers/checkout.ts';
import { git, makeRepo, tempDir, writeFiles } from '../helpers/git-repo.ts';
import { binarySuite, makeSandbox, type BinaryRun, type Sandbox } from './binary.ts';
import { worktreesDir } from '../../core/state-dir.ts';
import { alive } from '../helpers/processes.ts';
import { fakeClis } from '../helpers/fake-clis.ts';

const APPROVED = '```json\n{"status": "APPROVED", "review_status": "APPROVED", "issues": []}\n```\n';
const IMPLEMENTED = '```json\n{"status": "SUCCESS", "action_taken": "did it"}\n```\n';

interface Result {
  run_id: string;
  status: string;
  exit_code: number;
  failure: { class: string; detail: string } | null;
  branch: string | null;
  files_changed: string[] | null;
  worktree: { path: string; kept: boolean };
  notices: string[];
  run_dir: string;
}

/** A folder with `claude` (the fake, node by absolute path) and a reply file. */
async function fakes(reply: string): Promise<{ dir: string; reply: string }> {
  const dir = await fakeClis();
  await writeFile(join(dir, 'reply.md'), reply);
  return { dir, reply: join(dir, 'reply.md') };
}

/** The user's repository: committed files, an uncommitted change, an untracked file. */
async function userRepo(): Promise<string> {
  const repo = await makeRepo({ 'a.txt': 'one\n', 'b.txt': 'two\n' });
  await writeFiles(repo, { 'a.txt': 'one, edited by the user\n', 'untracked.txt': 'mine\n' });
  return repo;
}

/** No running process left in group `pgid`. */
function groupGone(pgid: number): boolean {
  return readdirSync('/proc').filter((n) => /^\d+$/.test(n)).every((pid) => {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return Number(fields[2]) !== pgid || /^[ZX]/.test(fields[0]!);
    } catch {
      return true;
    }
  });
}

const SETSID = ['/usr/bin/setsid', '/bin/setsid'].find((p) => existsSync(p)) ?? 'setsid';

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 400 && !check(); i++) await new Promise((r) => setTimeout(r, 50));
  assert.ok(check(), what);
}

function events(runDir: string): Array<Record<string, unknown>> {
  return readFileSync(join(runDir, 'events.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
}

function runDirs(repo: string): string[] {
  const runs = join(repo, '.supervisor', 'runs');
  return existsSync(runs) ? readdirSync(runs).map((id) => join(runs, id)) : [];
}

/** The kernel's start time of a process: with the pid, it names that process and no later one. */
function startTime(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

/** Processes a failing test could leave (a binary without these fixes): ended after the suite, if still the same processes. */
const started = new Map<number, string>();
const toEnd = {
  add(pid: number) {
    const time = startTime(pid);
    if (time) started.set(pid, time);
    return toEnd;
  },
};

describe('safety of the user checkout, processes and git (issue 13), from the binary', binarySuite(), () => {
  let box: Sandbox;
  before(async () => {
    box = await makeSandbox();
  });
  after(() => {
    for (const [pid, time] of started) {
      if (startTime(pid) !== time) continue; // gone, as it should be (the pid may be someone else's now)
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone meanwhile
      }
    }
  });

  function run(repo: string, role: string, f: { dir: string; reply: string }, env: Record<string, string> = {}): Promise<BinaryRun> {
    return box.run(['run', role, '--cli', 'claude', '--task', 'Do it', '--json'], {
      cwd: repo,
      env: { PATH: `${f.dir}:${box.path}`, FAKE_CLI_REPLY_FILE: f.reply, USER_CHECKOUT: repo, ...env },
    });
  }

  /** Starts the binary without waiting; resolves `exited` with the exit code. */
  function start(repo: string, args: string[], env: Record<string, string>): { child: ChildProcess; exited: Promise<number | null>; stdout: () => string } {
    const child = spawn(box.binary, args, { cwd: repo, env: box.env(env), stdio: ['ignore', 'pipe', 'pipe'] });
    toEnd.add(child.pid!);
    let out = '';
    child.stdout!.setEncoding('utf8').on('data', (c: string) => (out += c));
    child.stderr!.resume();
    return { child, exited: new Promise((resolve) => child.on('close', (code) => resolve(code))), stdout: () => out };
  }

  // ---- item 1: a worktree that stops being one is never committed through --------------------

  it('item 1: a reviewer whose CLI deletes its .git commits nothing anywhere: workspace_broken, exit 4, checkout unchanged, folder kept', async () => {
    const repo = await userRepo();
    const before = snapshotCheckout(repo);
    const branches = git(repo, 'branch', '--list');
    const f = await fakes(`Fine.\n\n${APPROVED}`);
    const result = await run(repo, 'reviewer', f, { FAKE_CLI_SH: 'rm -f .git' });
    assert.equal(result.code, 4, result.stderr);
    const r = JSON.parse(result.stdout) as Result;
    assert.equal(r.failure?.class, 'workspace_broken');
    assert.equal(r.branch, null);
    assertCheckoutUnchanged(repo, before);
    assert.equal(git(repo, 'branch', '--list'), branches, 'no branch made');
    assert.equal(r.worktree.kept, true);
    assert.ok(existsSync(r.worktree.path), 'the folder is kept for inspection');
    assert.match(r.notices.join('\n'), new RegExp(`${r.worktree.path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is kept for inspection`));
  });

  // ---- items 1 and 3: recovery of a killed run --------------------------------------------------

  it("items 1 and 3: after kill -9, the next run ends the orphaned CLI's process group first and commits nothing from a broken worktree", async () => {
    const repo = await userRepo();
    const f = await fakes(`Fine.\n\n${APPROVED}`);
    const log = join(f.dir, 'calls.jsonl');
    // The CLI deletes its .git, answers, then keeps running (and writing) until killed.
    const first = start(repo, ['run', 'implementer', '--cli', 'claude', '--task', 'Do it', '--json'], {
      PATH: `${f.dir}:${box.path}`,
      FAKE_CLI_REPLY_FILE: f.reply,
      FAKE_CLI_LOG: log,
      FAKE_CLI_SH: 'rm -f .git; echo half > partial.txt',
      FAKE_CLI_HANG: '1',
    });
    await until(() => existsSync(log), 'the fake CLI started');
    const cliPid = (JSON.parse(readFileSync(log, 'utf8').trim().split('\n')[0]!) as { pid: number }).pid;
    toEnd.add(cliPid);
    const [runDir] = runDirs(repo);
    const worktree = join(worktreesDir(repo, { HOME: box.home }), runDir!.split('/').at(-1)!);
    await until(() => existsSync(join(worktree, 'partial.txt')), 'the CLI broke its worktree');
    assert.ok(events(runDir!).some((e) => e.kind === 'cli_started' && e.pgid === cliPid), 'the process group is in the run log');
    first.child.kill('SIGKILL');
    await first.exited;
    assert.ok(alive(cliPid), 'the orphaned CLI outlived supervisor');
    const before = snapshotCheckout(repo);
    const second = await run(repo, 'reviewer', f);
    assert.equal(second.code, 0, second.stderr);
    assert.ok(!alive(cliPid), 'recovery ended the orphaned CLI');
    // First: the orphan was ended (in the killed run's log) before the new run's CLI started.
    const ended = events(runDir!).find((e) => e.kind === 'notice' && String(e.message).startsWith('recovery ended processes of this run'));
    const secondDir = runDirs(repo).find((d) => d !== runDir)!;
    const cliStarted = events(secondDir).find((e) => e.kind === 'cli_started');
    assert.ok(ended && cliStarted, 'both the recovery and the new CLI are in the run logs');
    assert.ok(String(ended.ts) <= String(cliStarted.ts), `the orphan was ended (${String(ended.ts)}) before the new CLI started (${String(cliStarted.ts)})`);
    const r = JSON.parse(second.stdout) as Result;
    assert.match(r.notices.join('\n'), /is no longer a worktree of this repository/);
    assertCheckoutUnchanged(repo, before);
    assert.equal(git(repo, 'branch', '--list', 'supervisor/*').split('\n').filter(Boolean).length, 0, 'nothing committed');
  });

  // ---- item 2: what the CLI did outside its worktree ---------------------------------------------

  it('item 2: a CLI that appends to a file of the checkout by its absolute path: escaped_worktree, the file named', async () => {
    const repo = await userRepo();
    const f = await fakes(`Fine.\n\n${APPROVED}`);
    const result = await run(repo, 'reviewer', f, { FAKE_CLI_SH: 'echo injected >> "$USER_CHECKOUT/b.txt"; echo more >> "$USER_CHECKOUT/a.txt"' });
    assert.equal(result.code, 4, result.stderr);
    const r = JSON.parse(result.stdout) as Result;
    assert.equal(r.failure?.class, 'escaped_worktree');
    assert.match(r.failure!.detail, /files changed: a\.txt, b\.txt/, 'a file that was already dirty counts too');
    assert.match(result.stderr, /notice: the CLI changed your repository outside its worktree/);
  });

  it('item 2: a CLI that switches the checkout to a new branch through the common git dir: escaped_worktree, the branch named', async () => {
    const repo = await userRepo();
    const f = await fakes(`Fine.\n\n${APPROVED}`);
    const sh = 'top=$(dirname "$(cd "$(git rev-parse --git-common-dir)" && pwd)"); git -C "$top" checkout -q -b hijacked';
    const result = await run(repo, 'reviewer', f, { FAKE_CLI_SH: sh });
    assert.equal(result.code, 4, result.stderr);
    const r = JSON.parse(result.stdout) as Result;
    assert.equal(r.failure?.class, 'escaped_worktree');
    assert.match(r.failure!.detail, /switched from main to hijacked/);
    assert.match(r.failure!.detail, /branches created: hijacked/);
  });

  it("a CLI that deletes an earlier run's supervisor branch and a workflow's branch: escaped_worktree, both named", async () => {
    const repo = await userRepo();
    const earlier = 'supervisor/20200101-000000-implementer-aaaaaa';
    git(repo, 'branch', earlier);
    git(repo, 'branch', 'supervisor/wf/flow-1');
    const f = await fakes(`Fine.\n\n${APPROVED}`);
    const result = await run(repo, 'reviewer', f, { FAKE_CLI_SH: `git branch -D -q ${earlier} supervisor/wf/flow-1` });
    assert.equal(result.code, 4, result.stderr);
    const r = JSON.parse(result.stdout) as Result;
    assert.equal(r.failure?.class, 'escaped_worktree');
    assert.match(r.failure!.detail, new RegExp(`branches of other supervisor runs deleted: ${earlier}, supervisor/wf/flow-1`));
  });

  it('item 2: a CLI that stays in its worktree passes, and the checkout is byte for byte the same', async () => {
    const repo = await userRepo();
    const before = snapshotCheckout(repo);
    const f = await fakes(`Done.\n\n${IMPLEMENTED}`);
    const result = await run(repo, 'implementer', f, { FAKE_CLI_EDITS: JSON.stringify({ 'a.txt': 'changed in the worktree\n' }) });
    assert.equal(result.code, 0, result.stderr);
    const r = JSON.parse(result.stdout) as Result;
    assert.deepEqual(r.files_changed, ['a.txt']);
    assertCheckoutUnchanged(repo, before);
  });

  it('item 2: a branch the CLI made for itself inside its worktree is named, not a failure; the run commits detached', async () => {
    const repo = await userRepo();
    const before = snapshotCheckout(repo);
    const f = await fakes(`Done.\n\n${IMPLEMENTED}`);
    const result = await run(repo, 'implementer', f, { FAKE_CLI_SH: 'git checkout -q -b cli-branch', FAKE_CLI_EDITS: JSON.stringify({ 'a.txt': 'changed\n' }) });
    assert.equal(result.code, 0, result.stderr);
    const r = JSON.parse(result.stdout) as Result;
    assert.match(r.notices.join('\n'), /the CLI created branch cli-branch in your repository/);
    assert.equal(git(repo, 'rev-parse', 'cli-branch'), git(repo, 'rev-parse', 'main'), "supervisor's commit did not move the CLI's branch");
    assert.equal(git(repo, 'show', `${r.branch}:a.txt`), 'changed\n');
    assertCheckoutUnchanged(repo, before);
  });

  // ---- item 3: no process outlives its run --------------------------------------------------------

  for (const [signal, code] of [['SIGHUP', 129], ['SIGTERM', 143]] as const) {
    it(`item 3: ${signal} ends the CLI's process tree, finishes the run log and exits ${code}`, async () => {
      const repo = await makeRepo();
      const f = await fakes(`Fine.\n\n${APPROVED}`);
      const log = join(f.dir, 'calls.jsonl');
      const pidFile = join(f.dir, 'grandchild.pid');
      const started = start(repo, ['run', 'reviewer', '--cli', 'claude', '--task', 'Review', '--json'], {
        PATH: `${f.dir}:${box.path}`,
        FAKE_CLI_REPLY_FILE: f.reply,
        FAKE_CLI_LOG: log,
        FAKE_CLI_HANG: '1',
        FAKE_CLI_GRANDCHILD: '1',
        FAKE_CLI_GRANDCHILD_PID_FILE: pidFile,
        // It also wrote outside its worktree before it was stopped: still reported.
        USER_CHECKOUT: repo,
        FAKE_CLI_SH: 'echo x >> "$USER_CHECKOUT/README.md"',
      });
      await until(() => existsSync(log) && existsSync(pidFile), 'the fake CLI and its child started');
      const cliPid = (JSON.parse(readFileSync(log, 'utf8').trim().split('\n')[0]!) as { pid: number }).pid;
      const grandchild = Number(readFileSync(pidFile, 'utf8'));
      toEnd.add(cliPid).add(grandchild);
      started.child.kill(signal);
      assert.equal(await started.exited, code);
      assert.ok(!alive(cliPid) && !alive(grandchild), 'the CLI and its child are gone');
      assert.ok(groupGone(cliPid), 'its process group is empty');
      const r = JSON.parse(started.stdout()) as Result;
      assert.equal(r.failure?.class, 'interrupted');
      assert.equal(r.exit_code, code);
      assert.equal(events(r.run_dir).at(-1)?.kind, 'run_finished');
      assert.match(r.notices.join('\n'), /changed your repository outside its worktree: files changed: README\.md/);
    });
  }

  it('item 3: a daemon the CLI started with setsid (out of its process group) is ended with the run', async () => {
    const repo = await makeRepo();
    const f = await fakes(`Fine.\n\n${APPROVED}`);
    const pidFile = join(f.dir, 'daemon.pid');
    // The CLI waits until the daemon leads a session and group of its own (else the group kill would end it anyway).
    const sh = `${SETSID} sleep 600 </dev/null >/dev/null 2>&1 & d=$!; echo $d > "${pidFile}"; until read -r _ _ _ _ pg _ < /proc/$d/stat && [ "$pg" = "$d" ]; do sleep 0.05; done`;
    const result = await run(repo, 'reviewer', f, { FAKE_CLI_SH: sh });
    assert.equal(result.code, 0, result.stderr);
    const daemon = Number(readFileSync(pidFile, 'utf8'));
    toEnd.add(daemon);
    await until(() => !alive(daemon), 'the daemon is gone after the run');
    assert.match(result.stderr, /ended processes the run left running/);
  });

  /** A `git` in front of the real one that stops (pid in a file) when its arguments match. */
  async function stallingGit(dir: string, pattern: string): Promise<string> {
    const real = join(box.path, 'git');
    const pidFile = join(dir, 'stalled-git.pid');
    await writeFile(join(dir, 'git'), `#!/bin/sh\ncase " $* " in *"${pattern}"*) echo $$ > "${pidFile}"; exec sleep 600;; esac\nexec "${real}" "$@"\n`);
    await chmod(join(dir, 'git'), 0o755);
    return pidFile;
  }

  // The bound is generous (a stopped run ends in well under a second); today's binary waits for the stalled git.
  it('item 3: Ctrl-C during the commit step stops the run (exit 130, nothing committed), not pass', { timeout: 20_000 }, async () => {
    const repo = await makeRepo();
    const f = await fakes(`Done.\n\n${IMPLEMENTED}`);
    const pidFile = await stallingGit(f.dir, ' add -A ');
    const started = start(repo, ['run', 'implementer', '--cli', 'claude', '--task', 'Do it', '--json'], {
      PATH: `${f.dir}:${box.path}`,
      FAKE_CLI_REPLY_FILE: f.reply,
      FAKE_CLI_EDITS: JSON.stringify({ 'new.txt': 'new\n' }),
    });
    await until(() => existsSync(pidFile), 'the commit step started');
    toEnd.add(Number(readFileSync(pidFile, 'utf8')));
    started.child.kill('SIGINT');
    assert.equal(await started.exited, 130);
    const r = JSON.parse(started.stdout()) as Result;
    assert.equal(r.failure?.class, 'interrupted');
    assert.equal(r.branch, null);
    assert.ok(!alive(Number(readFileSync(pidFile, 'utf8'))), 'the stalled git is gone');
  });

  it('item 3: Ctrl-C during packing stops the run at once (exit 130) and ends the packer\'s git', { timeout: 20_000 }, async () => {
    const repo = await makeRepo();
    const f = await fakes(`Fine.\n\n${APPROVED}`);
    const pidFile = await stallingGit(f.dir, ' diff --no-color ');
    const started = start(repo, ['run', 'reviewer', '--cli', 'claude', '--task', 'Review', '--json'], { PATH: `${f.dir}:${box.path}`, FAKE_CLI_REPLY_FILE: f.reply });
    await until(() => existsSync(pidFile), 'packing reached git diff');
    toEnd.add(Number(readFileSync(pidFile, 'utf8')));
    started.child.kill('SIGINT');
    assert.equal(await started.exited, 130);
    assert.ok(!alive(Number(readFileSync(pidFile, 'utf8'))), "the packer's git is gone");
    // At once: the run went no further than packing (no CLI started, no worktree left).
    const withCli = runDirs(repo).filter((d) => existsSync(join(d, 'events.jsonl')) && events(d).some((e) => e.kind === 'cli_started'));
    assert.deepEqual(withCli, [], 'no CLI was started after Ctrl-C');
    assert.equal(git(repo, 'worktree', 'list').trim().split('\n').length, 1, 'no worktree is left');
  });

  // ---- item 8: git, done safely -------------------------------------------------------------------

  it("item 8: the repository's hooks never run for supervisor's own git (worktree add, commit, branch)", async () => {
    const repo = await makeRepo();
    const marker = join(await tempDir('sv-hooks-'), 'ran.txt');
    for (const hook of ['post-checkout', 'prepare-commit-msg', 'commit-msg', 'pre-commit', 'post-commit', 'reference-transaction']) {
      await writeFile(join(repo, '.git', 'hooks', hook), `#!/bin/sh\necho ${hook} >> "${marker}"\n`);
      await chmod(join(repo, '.git', 'hooks', hook), 0o755);
    }
    const f = await fakes(`Done.\n\n${IMPLEMENTED}`);
    const result = await run(repo, 'implementer', f, { FAKE_CLI_EDITS: JSON.stringify({ 'new.txt': 'new\n' }) });
    assert.equal(result.code, 0, result.stderr);
    assert.ok((JSON.parse(result.stdout) as Result).branch, 'the work was committed');
    assert.ok(!existsSync(marker), `hooks ran: ${existsSync(marker) ? readFileSync(marker, 'utf8') : ''}`);
  });

  it('item 8: a branch named "supervisor" makes supervisor/<run-id> impossible: commit_failed, the work kept and named', async () => {
    const repo = await makeRepo();
    git(repo, 'branch', 'supervisor');
    const f = await fakes(`Done.\n\n${IMPLEMENTED}`);
    const result = await run(repo, 'implementer', f, { FAKE_CLI_EDITS: JSON.stringify({ 'new.txt': 'new\n' }) });
    assert.equal(result.code, 4, result.stderr);
    const r = JSON.parse(result.stdout) as Result;
    assert.equal(r.failure?.class, 'commit_failed');
    assert.match(r.failure!.detail, /supervisor\//);
    assert.equal(r.worktree.kept, true);
    assert.equal(readFileSync(join(r.worktree.path, 'new.txt'), 'utf8'), 'new\n');
  });

  it('item 8: a CLI that made supervisor/<run-id> itself: commit_failed, its branch is not moved', async () => {
    const repo = await makeRepo();
    const f = await fakes(`Done.\n\n${IMPLEMENTED}`);
    const result = await run(repo, 'implementer', f, { FAKE_CLI_SH: 'git branch "supervisor/$SUPERVISOR_RUN_ID"', FAKE_CLI_EDITS: JSON.stringify({ 'new.txt': 'new\n' }) });
    assert.equal(result.code, 4, result.stderr);
    const r = JSON.parse(result.stdout) as Result;
    assert.equal(r.failure?.class, 'commit_failed');
    assert.equal(git(repo, 'rev-parse', `supervisor/${r.run_id}`), git(repo, 'rev-parse', 'main'), "the CLI's branch is where it put it");
    assert.equal(r.worktree.kept, true);
  });

  it('item 8: a bare repository is refused with a clear error, and nothing is written into it', async () => {
    const source = await makeRepo();
    const bare = join(await tempDir('sv-bare-'), 'repo.git');
    git(source, 'clone', '-q', '--bare', source, bare);
    const listing = readdirSync(bare).sort();
    const f = await fakes(`Fine.\n\n${APPROVED}`);
    const result = await run(bare, 'reviewer', f);
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /bare git repository/);
    assert.deepEqual(readdirSync(bare).sort(), listing);
  });

  it('item 8: a nested repository and ignored files are named in notices, and no gitlink to a missing commit is committed', async () => {
    const repo = await makeRepo({ '.gitignore': '*.log\n', 'a.txt': 'a\n' });
    const f = await fakes(`Done.\n\n${IMPLEMENTED}`);
    const sh = 'echo x > build.log; git init -q nested && echo n > nested/n.txt && git -C nested add -A && git -C nested -c user.name=n -c user.email=n@n commit -qm n';
    const result = await run(repo, 'implementer', f, { FAKE_CLI_SH: sh, FAKE_CLI_EDITS: JSON.stringify({ 'a.txt': 'b\n' }) });
    assert.equal(result.code, 0, result.stderr);
    const r = JSON.parse(result.stdout) as Result;
    assert.deepEqual(r.files_changed, ['a.txt']);
    assert.equal(git(repo, 'ls-tree', '-r', r.branch!).includes('160000'), false, 'no gitlink committed');
    const notices = r.notices.join('\n');
    assert.match(notices, /nested git repository nested/);
    assert.match(notices, /ignored file build\.log/);
    assert.equal(r.worktree.kept, true, 'the nested repository is kept');
  });

  it('item 8: work in a submodule is named, and its new commit (which exists only in the worktree) is not committed as a gitlink', async () => {
    const sub = await makeRepo({ 's.txt': 's\n' });
    const repo = await makeRepo({ 'a.txt': 'a\n' });
    git(repo, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', sub, 'lib');
    git(repo, 'commit', '-qm', 'submodule');
    const f = await fakes(`Done.\n\n${IMPLEMENTED}`);
    const sh = `git -c protocol.file.allow=always submodule update -q --init && cd lib && echo t > t.txt && git add -A && git -c user.name=n -c user.email=n@n commit -qm t`;
    const result = await run(repo, 'implementer', f, { FAKE_CLI_SH: sh, FAKE_CLI_EDITS: JSON.stringify({ 'a.txt': 'b\n' }) });
    assert.equal(result.code, 0, result.stderr);
    const r = JSON.parse(result.stdout) as Result;
    assert.deepEqual(r.files_changed, ['a.txt']);
    assert.match(r.notices.join('\n'), /submodule lib/);
    assert.equal(git(repo, 'rev-parse', `${r.branch}:lib`), git(repo, 'rev-parse', 'HEAD:lib'), 'the gitlink is unchanged');
  });
});

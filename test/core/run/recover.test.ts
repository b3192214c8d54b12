import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { recoverStaleWorktrees } from '../../../core/run/recover.ts';
import { RunLog } from '../../../core/run/run-log.ts';
import { readEvents } from '../../../core/runs/runs-store.ts';
import { ensureStateDir } from '../../../core/state-dir.ts';
import { assertCheckoutUnchanged, snapshotCheckout } from '../../helpers/checkout.ts';
import { git, makeRepo, writeFiles } from '../../helpers/git-repo.ts';

const ID = '20260101-000000-implementer-abcdef';
const now = () => new Date();
/** The pid of a process that has come and gone. */
const deadPid = () => spawnSync(process.execPath, ['-e', '']).pid!;

/** A run killed outright: its events so far, and its worktree. */
async function killedRun(withBase: boolean) {
  const repo = await makeRepo();
  const paths = ensureStateDir(repo);
  const log = new RunLog(join(paths.runs, ID), now);
  log.event('run_started', { run_id: ID, pid: deadPid() });
  const worktree = join(paths.worktrees, ID);
  git(repo, 'worktree', 'add', '--detach', '-q', worktree, 'HEAD');
  if (withBase) log.event('workspace_ready', { mode: 'worktree', path: worktree, base: git(repo, 'rev-parse', 'HEAD').trim() });
  return { repo, paths, worktree, runDir: log.dir };
}

describe('recovering the worktrees of killed runs', () => {
  it('removes the worktree of a run killed before workspace_ready, and says so', async () => {
    const { repo, paths, worktree, runDir } = await killedRun(false);
    const notices = await recoverStaleWorktrees(repo, paths, now);
    assert.equal(notices.length, 1);
    assert.match(notices[0]!, new RegExp(`run ${ID} was killed before its worktree was ready: its worktree is removed`));
    assert.ok(!existsSync(worktree));
    assert.equal(git(repo, 'worktree', 'list').trim().split('\n').length, 1);
    assert.equal(readEvents(runDir).at(-1)?.kind, 'workspace_removed');
  });

  it("leaves alone the worktree of a run that is starting: made beside its packing, its folder made, its run_started not written yet", async () => {
    const repo = await makeRepo();
    const paths = ensureStateDir(repo);
    const log = new RunLog(join(paths.runs, ID), now); // the folder, no event yet
    const worktree = join(paths.worktrees, ID);
    git(repo, 'worktree', 'add', '--detach', '-q', worktree, 'HEAD');
    assert.deepEqual(await recoverStaleWorktrees(repo, paths, now), []);
    assert.ok(existsSync(worktree));
    assert.deepEqual(readEvents(log.dir), []);
    assert.equal(git(repo, 'worktree', 'list').trim().split('\n').length, 2);
  });

  it('a failed recovery leaves no lock behind: the next run recovers the work', async () => {
    const { repo, paths, worktree, runDir } = await killedRun(true);
    await writeFiles(worktree, { 'partial.txt': 'half\n' });
    // Another git holds the worktree's index for now: adding fails, the next run may succeed.
    // (Our git uses its own index for the worktree, outside the admin folder: own-index.ts.)
    const indexLock = join(repo, '.git', 'supervisor', 'index', `${ID}.lock`);
    mkdirSync(dirname(indexLock), { recursive: true });
    writeFileSync(indexLock, '');
    const failed = await recoverStaleWorktrees(repo, paths, now);
    assert.match(failed.join('\n'), /could not be recovered \(the next run tries again\)/);
    assert.ok(!existsSync(join(runDir, '.recovering')));
    assert.ok(existsSync(worktree));
    rmSync(indexLock);
    const notices = await recoverStaleWorktrees(repo, paths, now);
    assert.match(notices.join('\n'), new RegExp(`its changes are on supervisor/${ID}`));
    assert.equal(git(repo, 'show', `supervisor/${ID}:partial.txt`), 'half\n');
    assert.ok(!existsSync(worktree));
  });

  it("commits nothing from a worktree whose .git is gone: the user's branch and files stay as they were", async () => {
    const { repo, paths, worktree, runDir } = await killedRun(true);
    await writeFiles(repo, { 'mine.txt': 'uncommitted work of the user\n' });
    await writeFiles(worktree, { 'partial.txt': 'half\n' });
    rmSync(join(worktree, '.git')); // what a hostile CLI did before supervisor was killed
    const before = snapshotCheckout(repo);
    const notices = await recoverStaleWorktrees(repo, paths, now);
    assert.match(notices.join('\n'), /is no longer a worktree of this repository/);
    assertCheckoutUnchanged(repo, before);
    assert.equal(git(repo, 'branch', '--list', `supervisor/${ID}`), '', 'no branch made');
    assert.ok(existsSync(join(worktree, 'partial.txt')), 'the folder is kept');
    assert.equal(readEvents(runDir).at(-1)?.kind, 'run_finished');
    assert.deepEqual(await recoverStaleWorktrees(repo, paths, now), [], 'not tried again');
  });

  it("ends the killed run's CLI (its recorded process group) before touching the worktree", async () => {
    const { repo, paths, worktree, runDir } = await killedRun(true);
    // The orphaned CLI: its own process group, the run's id in its environment, still writing.
    const cli = spawn(process.execPath, ['-e', 'setInterval(() => require("fs").appendFileSync("log.txt", "x"), 20)'], {
      cwd: worktree,
      detached: true,
      stdio: 'ignore',
      env: { ...process.env, SUPERVISOR_RUN_ID: ID },
    });
    const gone = new Promise((resolve) => cli.on('exit', resolve));
    new RunLog(runDir, now).event('cli_started', { attempt: 1, pid: cli.pid, pgid: cli.pid });
    while (!existsSync(join(worktree, 'log.txt'))) await new Promise((r) => setTimeout(r, 20));
    const notices = await recoverStaleWorktrees(repo, paths, now);
    await gone;
    assert.throws(() => process.kill(-cli.pid!, 0), 'the process group is gone');
    assert.match(notices.join('\n'), new RegExp(`its changes are on supervisor/${ID}`));
    assert.ok(!existsSync(worktree));
  });
});

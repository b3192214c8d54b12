import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { recoverStaleWorktrees } from '../../../core/engine/recover.ts';
import { RunLog } from '../../../core/engine/run-log.ts';
import { readEvents } from '../../../core/engine/runs-store.ts';
import { ensureStateDir } from '../../../core/engine/state-dir.ts';
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

  it('a failed recovery leaves no lock behind: the next run recovers the work', async () => {
    const { repo, paths, worktree, runDir } = await killedRun(true);
    await writeFiles(worktree, { 'partial.txt': 'half\n' });
    const gitFile = join(worktree, '.git');
    const link = readFileSync(gitFile, 'utf8');
    writeFileSync(gitFile, 'gitdir: /nonexistent\n'); // git cannot read this worktree for now
    const failed = await recoverStaleWorktrees(repo, paths, now);
    assert.match(failed.join('\n'), /could not be recovered \(the next run tries again\)/);
    assert.ok(!existsSync(join(runDir, '.recovering')));
    assert.ok(existsSync(worktree));
    writeFileSync(gitFile, link);
    const notices = await recoverStaleWorktrees(repo, paths, now);
    assert.match(notices.join('\n'), new RegExp(`its changes are on supervisor/${ID}`));
    assert.equal(git(repo, 'show', `supervisor/${ID}:partial.txt`), 'half\n');
    assert.ok(!existsSync(worktree));
  });
});

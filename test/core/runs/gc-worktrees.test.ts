/**
 * gc's worktrees: a run makes its worktree before its log begins (workspace-ahead.ts), so a
 * worktree whose run wrote no run_started yet is starting while it is young, and goes once old.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { collectWorktrees, type WorktreeItem } from '../../../core/runs/gc-worktrees.ts';
import { RunLog } from '../../../core/run/run-log.ts';
import { ensureStateDir } from '../../../core/state-dir.ts';
import { git, makeRepo } from '../../helpers/git-repo.ts';

const ID = '20260101-000000-reviewer-abcdef';
const notLive = () => false;

async function startingRun(withFolder: boolean) {
  const repo = await makeRepo();
  const paths = ensureStateDir(repo);
  if (withFolder) new RunLog(join(paths.runs, ID), () => new Date()); // the folder, no event yet
  const worktree = join(paths.worktrees, ID);
  git(repo, 'worktree', 'add', '--detach', '-q', worktree, 'HEAD');
  return { repo, worktree };
}

async function gc(repo: string, now: Date) {
  const report = { removed: [] as WorktreeItem[], kept: [] as WorktreeItem[] };
  await collectWorktrees({ repoRoot: repo, now, dryRun: false, includeUnmerged: false }, report, notLive);
  return report;
}

describe("gc and a run's worktree made before its log", () => {
  for (const withFolder of [false, true]) {
    it(`keeps it while young (${withFolder ? 'its folder made, no run_started' : 'no run folder yet'}), removes it once ten minutes old`, async () => {
      const { repo, worktree } = await startingRun(withFolder);
      const young = await gc(repo, new Date());
      assert.deepEqual(young.kept.map((i) => [i.name, i.reason]), [[worktree, 'its run is still going']]);
      assert.ok(existsSync(worktree));
      const old = await gc(repo, new Date(Date.now() + 11 * 60_000));
      assert.deepEqual(old.removed.map((i) => i.name), [worktree]);
      assert.ok(!existsSync(worktree));
    });
  }
});

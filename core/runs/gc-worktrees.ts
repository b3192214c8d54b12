/**
 * `gc`'s worktrees: those of runs that are over go (kept: a live or starting run's, one its run
 * kept on purpose, one holding uncommitted changes unless asked); the workflows' are gc'd with
 * their workflows.
 */
import { existsSync, lstatSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { git, type GitEnv } from '../git/git.ts';
import { boundGit, commonGitDir, linkProblem, type BoundWorktree } from '../git/bound-git.ts';
import { isRunId } from '../run/run-id.ts';
import { readEvents } from '../run/run-log.ts';
import { statePaths } from '../state-dir.ts';
import { workflowPaths } from '../workflow/engine/names.ts';

export interface WorktreeItem {
  kind: 'worktree';
  name: string;
  reason: string;
}

export interface WorktreeGcOptions {
  repoRoot: string;
  now: Date;
  dryRun: boolean;
  includeUnmerged: boolean;
  includeKept?: boolean;
  env?: GitEnv;
}

/** How long a worktree whose run has not begun its log counts as starting (see runIsStarting). */
const STARTING_MS = 10 * 60_000;

/**
 * A run makes its worktree before its log begins (while its prompt is packed, workspace-ahead.ts;
 * --base and --review before that): a worktree whose run wrote no run_started yet is starting
 * while it is young. One left by a run killed in that instant goes once it is older.
 */
function runIsStarting(runDir: string, worktree: string, now: Date): boolean {
  // Its age first: an old worktree (the usual case) needs no second read of its run's log.
  const made = lstatSync(worktree, { throwIfNoEntry: false })?.ctimeMs;
  if (made === undefined || now.getTime() - made >= STARTING_MS) return false;
  return !readEvents(runDir).some((e) => e.kind === 'run_started');
}

/** Removes (or, dry, names) the worktrees of runs that are over; returns their paths. `runIsLive`: gc's own test of a run folder. */
export async function collectWorktrees(opts: WorktreeGcOptions, report: { removed: { push(item: WorktreeItem): unknown }; kept: { push(item: WorktreeItem): unknown } }, runIsLive: (runDir: string) => boolean): Promise<Set<string>> {
  const { runs, worktrees } = statePaths(opts.repoRoot);
  const removed = new Set<string>();
  if (!existsSync(worktrees)) return removed;
  let commonDir: string | undefined;
  for (const name of readdirSync(worktrees).sort()) {
    const path = join(worktrees, name);
    const item = (reason: string): WorktreeItem => ({ kind: 'worktree', name: path, reason });
    // The workflows' worktrees (names.ts) are gc'd with their workflows, not as runs'.
    if (path === workflowsWorktrees(opts.repoRoot)) continue;
    if (!isRunId(name)) {
      report.kept.push(item('not the worktree of a run (left alone)'));
      continue;
    }
    if (runIsLive(join(runs, name)) || runIsStarting(join(runs, name), path, opts.now)) {
      report.kept.push(item('its run is still going'));
      continue;
    }
    if (!opts.includeKept && keptByItsRun(join(runs, name))) {
      report.kept.push(item('its run kept it (run --keep-worktree; --include-kept removes it)'));
      continue;
    }
    // The CLI that ran there may have rewritten its .git: git runs only bound to the admin folder
    // the worktree must have, and a worktree whose links no longer agree counts as holding work.
    commonDir ??= await commonGitDir(opts.repoRoot, opts.env);
    const bound: BoundWorktree = { path, gitDir: join(commonDir, 'worktrees', name), commonDir };
    const status = linkProblem(bound) ? null : await boundGit(bound, opts.env).run(['--no-optional-locks', 'status', '--porcelain', '-z']);
    const dirty = status === null || (status.ok && status.stdout.length > 0);
    if (dirty && !opts.includeUnmerged) {
      report.kept.push(item('it holds uncommitted changes (--include-unmerged removes it; the next run commits a killed run\'s work)'));
      continue;
    }
    if (!opts.dryRun) {
      const gone = await git(opts.repoRoot, ['worktree', 'remove', '--force', '--force', path], opts.env);
      if (!gone.ok) rmSync(path, { recursive: true, force: true });
    }
    removed.add(path);
    report.removed.push(item(dirty ? 'its run is over (uncommitted changes dropped: --include-unmerged)' : 'its run is over'));
  }
  if (!opts.dryRun && removed.size) await git(opts.repoRoot, ['worktree', 'prune'], opts.env);
  return removed;
}

/** The folder our names put every workflow's worktrees in (names.ts): the parent of one workflow's. */
function workflowsWorktrees(repoRoot: string): string {
  return dirname(workflowPaths(repoRoot, 'any').worktrees);
}

/** Whether the run's result says it kept its worktree (--keep-worktree). */
function keptByItsRun(runDir: string): boolean {
  try {
    const result = JSON.parse(readFileSync(join(runDir, 'result.json'), 'utf8')) as { worktree?: { kept?: unknown } };
    return result.worktree?.kept === true;
  } catch {
    return false;
  }
}

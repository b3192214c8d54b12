/**
 * Where a run packs its context and runs its CLI, settled before the prompt is built:
 *   - a caller-owned worktree (`workspace`): used as it is, on the branch it has checked out;
 *   - `--base` / `--review`: a worktree of the run's own at that commit, opened early so the
 *     prompt is packed from what the CLI will see (not from the user's checkout);
 *   - otherwise nothing here: runRole packs from the checkout and opens its worktree at HEAD.
 * openEarly settles the first two under the run's id.
 */
import { basename } from 'node:path';
import { errors } from '../errors.ts';
import { locateWorktree } from '../git/bound-git.ts';
import { checkWorktree } from '../git/verified-worktree.ts';
import { git, type GitEnv } from '../git/git.ts';
import type { RunRoleOptions } from './options.ts';
import { resolveCommit, resolveReviewRange, type ReviewRange } from './start-point.ts';
import { openWorkspace, type RepoState, type Workspace } from './worktree.ts';
import { ensureStateDir } from '../state-dir.ts';
import { resolvePeers } from './peers.ts';
import { newRunId } from './run-id.ts';

export interface RunPlace {
  /** Where the prompt is packed from. */
  contextRoot: string;
  workspace: Workspace;
  review: ReviewRange | null;
}

/** True when the run's place must be settled before packing. */
export function needsEarlyPlace(options: RunRoleOptions): boolean {
  return options.workspace !== undefined || options.base !== undefined || options.review !== undefined;
}

/**
 * A worktree the caller owns: it must exist and have `branch` checked out. With its admin
 * folder recorded (`given.git`), it is checked through that record and no git runs through
 * the folder's own `.git` (a CLI of an earlier run may have rewritten it).
 */
async function callerWorkspace(repoRoot: string, given: NonNullable<RunRoleOptions['workspace']>, env?: GitEnv): Promise<Workspace> {
  if (given.git) {
    const check = await checkWorktree(given.git, { branch: given.branch }, env);
    if (check.problem) throw errors.workspaceBroken(given.path, check.problem);
    return { mode: 'worktree', path: given.path, base: check.head, reason: null, branch: given.branch, git: given.git, ...(given.exclude?.length ? { exclude: given.exclude } : {}) };
  }
  const [branch, head] = await Promise.all([git(given.path, ['symbolic-ref', '-q', '--short', 'HEAD'], env), git(given.path, ['rev-parse', '--verify', '-q', 'HEAD'], env)]);
  if (!head.ok || !branch.ok || branch.stdout.trim() !== given.branch) {
    throw errors.usage(`The workspace ${given.path} is not a git worktree on branch ${given.branch}`, 'Create it with: git worktree add <path> <branch>');
  }
  // Git for it is bound to its own git dir from here on, as for a worktree of the run's own.
  const bound = await locateWorktree(repoRoot, given.path, env);
  return { mode: 'worktree', path: given.path, base: head.stdout.trim(), reason: null, branch: given.branch, git: bound, ...(given.exclude?.length ? { exclude: given.exclude } : {}) };
}

/**
 * The reads a place needs, started at once and while the repository is inspected (each is a
 * git on the critical path): the review range and a caller's worktree check. Nothing of the
 * repository's is written (locating a caller's worktree seeds our own index of it, outside the
 * checkout); settlePlace awaits them in its own order, so the same error wins as before.
 */
export interface PlaceReads {
  review: Promise<ReviewRange> | null;
  caller: Promise<Workspace> | null;
}

export function startPlaceReads(options: RunRoleOptions): PlaceReads {
  const { repoRoot, env } = options;
  const quiet = <T>(work: Promise<T>): Promise<T> => {
    work.catch(() => {}); // awaited (and thrown) by settlePlace, or not needed
    return work;
  };
  if (options.worktree === false) return { review: null, caller: null };
  return {
    review: options.review === undefined ? null : quiet(resolveReviewRange(repoRoot, options.review, options.base, env)),
    caller: options.workspace ? quiet(callerWorkspace(repoRoot, options.workspace, env)) : null,
  };
}

/** Settles the run's place (see the file comment); `repo` is the repository as runRole found it. */
export async function settlePlace(options: RunRoleOptions, runId: string, worktreesDir: string, repo: RepoState, reads?: PlaceReads): Promise<RunPlace> {
  const { repoRoot, env } = options;
  if (options.worktree === false) throw errors.usage('--base, --review and a workspace need a worktree: drop --no-worktree');
  const review = options.review === undefined ? null : await (reads?.review ?? resolveReviewRange(repoRoot, options.review, options.base, env));
  if (options.workspace) {
    const workspace = await (reads?.caller ?? callerWorkspace(repoRoot, options.workspace, env));
    return { contextRoot: workspace.path, workspace, review };
  }
  const start = review ? review.head : await resolveCommit(repoRoot, options.base!, '--base', env);
  try {
    const workspace = await openWorkspace({ repoRoot, runId, worktreesDir, useWorktree: true, repo, env, start });
    return { contextRoot: workspace.path, workspace, review };
  } catch (error) {
    throw errors.worktreeFailed(repoRoot, error);
  }
}

/** A place settled early, under the run's id. */
export interface EarlyPlace {
  place: RunPlace;
  runId: string;
  startedAt: Date;
}

/**
 * --base, --review or a caller's worktree: the place is settled before packing, under a run id
 * made from the role as named (the loaded role's name is not known yet).
 */
export async function openEarly(options: RunRoleOptions, inspected: Promise<RepoState>): Promise<EarlyPlace> {
  // The place's reads go with the repository's inspection; its verdict still comes first.
  const reads = startPlaceReads(options);
  const repo = await inspected;
  const peers = await resolvePeers(options.peers);
  const startedAt = peers.now();
  const runId = newRunId(basename(options.role).replace(/\.ya?ml$/i, ''), startedAt, peers.randomHex);
  const paths = ensureStateDir(options.repoRoot);
  return { place: await settlePlace(options, runId, paths.worktrees, repo, reads), runId, startedAt };
}

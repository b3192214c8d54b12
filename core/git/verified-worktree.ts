/**
 * Whether a folder is still the worktree we made, and a worktree checked since the last
 * command ran in it. A CLI, a gate or a set-up command can
 * rewrite the worktree's `.git` file and admin folder (SECURITY I3), so a check only holds until
 * the next one of them runs there: every such process is started through `worktreeTouched`
 * (core/sandbox: the CLI's runner and the one executor), which invalidates the checks of the
 * worktree it runs in. Code that commits or merges in a worktree takes a `VerifiedWorktree` and
 * gets its git from `gitOf`, which refuses (GIT_WORKTREE_UNVERIFIED) once the check is stale.
 */
import { isAbsolute, resolve, sep } from 'node:path';
import { boundGit, linkProblem, real, type BoundGit, type BoundWorktree } from './bound-git.ts';
import type { GitClient } from './git-client.ts';
import { isObjectId, type GitEnv, type GitResult } from './git.ts';
import { gitErrors } from './errors.ts';
import { dropOwnIndex } from './own-index.ts';

export interface VerifiedWorktree {
  readonly worktree: BoundWorktree;
  /** HEAD's commit when it was checked. */
  readonly head: string;
  /** The branch HEAD was on (`refs/heads/...`), '' when detached. */
  readonly branchRef: string;
  /** How many commands had run in the worktree when it was checked. */
  readonly epoch: number;
}

/** Per worktree folder (keyed by path: no engine object is a key): commands started, the last check that passed. */
const counts = new Map<string, { epoch: number; last: VerifiedWorktree | null }>();

const keyOf = (path: string) => resolve(path);

function countOf(path: string): { epoch: number; last: VerifiedWorktree | null } {
  const key = keyOf(path);
  let count = counts.get(key);
  if (!count) counts.set(key, (count = { epoch: 0, last: null }));
  return count;
}

/** The worktree's count now; registers it so a command started during a check is seen. */
export function worktreeEpoch(path: string): number {
  return countOf(path).epoch;
}

/** A command is about to run in `cwd`: every check of the worktree holding it is stale now. */
export function worktreeTouched(cwd: string): void {
  const key = keyOf(cwd);
  for (const [path, count] of counts) {
    if (key === path || key.startsWith(path + sep)) {
      count.epoch++;
      count.last = null;
    }
  }
}

/** Whether no command ran in the worktree since it was checked. */
export function stillVerified(check: VerifiedWorktree): boolean {
  return worktreeEpoch(check.worktree.path) === check.epoch;
}

/** The last check of the folder that passed, if no command ran there since; null otherwise. */
export function currentCheck(path: string): VerifiedWorktree | null {
  const last = countOf(path).last;
  return last && stillVerified(last) ? last : null;
}

/** Git bound to the checked worktree; each command throws GIT_WORKTREE_UNVERIFIED once a command ran there since. */
export function gitOf(check: VerifiedWorktree, env?: GitEnv): GitClient {
  const bound = boundGit(check.worktree, env);
  const fresh = () => {
    if (!stillVerified(check)) throw gitErrors.worktreeUnverified(check.worktree.path);
  };
  fresh();
  return {
    run: async (args) => (fresh(), bound.run(args)),
    runOrThrow: async (args) => (fresh(), bound.runOrThrow(args)),
  };
}

/** The worktree is being removed: our index of it and its counts go (a long-lived server keeps none of them). */
export function worktreeRemoved(worktree: BoundWorktree): void {
  dropOwnIndex(worktree);
  counts.delete(keyOf(worktree.path));
}

export interface ExpectedLine {
  /** The commit the worktree started from: it must be HEAD or an ancestor of HEAD; undefined: any commit. */
  base?: string;
  /** The branch HEAD must be on (`refs/heads/<branch>`); undefined: any, detached included. */
  branch?: string;
}

export interface WorktreeCheck {
  /** Why the folder is no longer the worktree it was; null: it still is. */
  problem: string | null;
  /** The passed check, for the commit or merge that follows (null when it failed). */
  verified: VerifiedWorktree | null;
  /** HEAD's commit ('' when there is none). */
  head: string;
  /** The branch HEAD is on (`refs/heads/...`), '' when detached. */
  branchRef: string;
  /** The answer to the caller's `along` command, kept only when the check passed. */
  along?: GitResult;
}

/** Why the folder is no longer the worktree it was (null: it still is); see checkWorktree. */
export async function verifyWorktree(worktree: BoundWorktree, expected: ExpectedLine, env?: GitEnv): Promise<string | null> {
  return (await checkWorktree(worktree, expected, env)).problem;
}

/**
 * Checks that the folder is still the worktree: its `.git` file and admin folder point at
 * each other, the admin folder belongs to this repository, HEAD is on the expected line of
 * commits (and branch, when one is expected). Also says where HEAD is, for the commit step.
 */
export async function checkWorktree(worktree: BoundWorktree, expected: ExpectedLine, env?: GitEnv, along?: string[]): Promise<WorktreeCheck> {
  const failed = (problem: string, head = '', branchRef = ''): WorktreeCheck => ({ problem, verified: null, head, branchRef });
  // Counted before any git: a command started while git reads the worktree makes this check stale.
  const epoch = worktreeEpoch(worktree.path);
  const broken = linkProblem(worktree);
  if (broken) return failed(broken);
  const bound = boundGit(worktree, env);
  // One git for the three answers (between waves of tasks every spawn is on the critical path).
  // `--symbolic-full-name HEAD` follows symbolic refs to the end, as a commit on HEAD does: a
  // branch made a symbolic ref (to the user's branch, say) shows as the branch it leads to.
  // `--`: every argument is a revision, never a path a CLI could have created.
  // `along`: the caller's next command, run beside it with the same binding (the check's own git
  // is bound the same way, before its verdict too); its answer is dropped unless the check passes.
  const [read, alongRead] = await Promise.all([bound.run(['rev-parse', '--git-common-dir', 'HEAD^{commit}', '--symbolic-full-name', 'HEAD', '--']), along ? bound.run(along) : undefined]);
  const [commonOut = '', headId = '', symbolic = ''] = read.stdout.split('\n');
  if (!read.ok || !isObjectId(headId)) return failed(await whyUnreadable(bound, worktree));
  if (real(isAbsolute(commonOut) ? commonOut : resolve(worktree.path, commonOut)) !== real(worktree.commonDir)) {
    return failed(`the worktree's git dir no longer belongs to the repository at ${worktree.commonDir}`);
  }
  const branchRef = symbolic === 'HEAD' ? '' : symbolic;
  if (expected.branch !== undefined && branchRef !== `refs/heads/${expected.branch}`) {
    return failed(`the worktree is not on its branch ${expected.branch} any more (HEAD: ${branchRef || `detached at ${headId.slice(0, 12)}`})`, headId, branchRef);
  }
  if (expected.base !== undefined && headId !== expected.base) {
    const ancestor = await bound.run(['merge-base', '--is-ancestor', expected.base, headId]);
    if (!ancestor.ok) return failed(`the worktree's HEAD ${headId.slice(0, 12)} is not on the line of ${expected.base.slice(0, 12)} (the commit it started from)`, headId, branchRef);
  }
  const passed: VerifiedWorktree = { worktree, head: headId, branchRef, epoch };
  if (stillVerified(passed)) countOf(worktree.path).last = passed;
  return { problem: null, verified: passed, head: headId, branchRef, ...(alongRead ? { along: alongRead } : {}) };
}

/** Why the worktree's git could not be read: its git dir is another repository's, or HEAD has no commit. */
async function whyUnreadable(bound: BoundGit, worktree: BoundWorktree): Promise<string> {
  const common = await bound.run(['rev-parse', '--git-common-dir']);
  const out = common.stdout.trim();
  if (!common.ok || real(isAbsolute(out) ? out : resolve(worktree.path, out)) !== real(worktree.commonDir)) {
    return `the worktree's git dir no longer belongs to the repository at ${worktree.commonDir}`;
  }
  return 'the worktree has no HEAD commit any more';
}

/**
 * Git bound to one worktree. A worktree's `.git` is a file the CLI working there can delete or
 * rewrite; git run in that folder would then find the user's own repository above it and act
 * on the user's branch, index and files. So every command the engine runs for a worktree
 * names its git dir (the worktree's own admin folder, `<common dir>/worktrees/<name>`, found
 * when the worktree was made, before any CLI ran) and its work tree explicitly, and before
 * anything is committed `verifyWorktree` checks that the folder is still that worktree, of
 * this repository, at its path, on the expected line of commits. The workflow engine's slots
 * use the same module: one bound git for both engines.
 *
 * The admin folder is writable by the CLI (inside bwrap by design): its `config.worktree` may
 * name filters or merge drivers, so each BoundGit takes its driver guard (git.ts) on first use
 * from the config as it is then (read again whenever a config file changed); make a new one
 * after a CLI ran.
 *
 * Nothing in the admin folder is ever followed (SECURITY I3): before every command the folder is
 * walked (admin-folder.ts: plain files and folders only), git uses an index of ours kept outside
 * it (own-index.ts) and writes no reflog.
 */
import { lstatSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { adminFolderProblem } from './admin-folder.ts';
import { configState } from './config-state.ts';
import { hasOwnIndex, ownIndexPath, ownIndexProblem, seedOwnIndex, syncAdminIndex } from './own-index.ts';
import { gitOrThrow, guardedGit, isObjectId, readDriverGuard, refused, unguardable, type GitEnv, type GitResult } from './git.ts';
import type { WorktreeGit } from './worktree-git.ts';
import { gitErrors } from './errors.ts';

export interface BoundWorktree {
  /** The worktree's folder. */
  path: string;
  /** Its admin folder inside the main repository: `<common dir>/worktrees/<name>`. */
  gitDir: string;
  /** The main repository's git dir (shared by all its worktrees). */
  commonDir: string;
}

/** The folders a plugin may let git in the worktree use (CommandRequest.git, SandboxRequest.git). */
export function worktreeGit(worktree: BoundWorktree | undefined): { git: WorktreeGit } | Record<string, never> {
  return worktree ? { git: { admin: worktree.gitDir, common: worktree.commonDir } } : {};
}

export interface BoundGit {
  run(args: string[]): Promise<GitResult>;
  /** Throws an Error with git's stderr when git fails. */
  runOrThrow(args: string[]): Promise<string>;
}

/** Driver guards by worktree and config state: one `git config` per state, not per command. */
const guards = new Map<string, { state: string; guard: Promise<string[]> }>();

function guardFor(worktree: BoundWorktree, cwd: string, pre: string[], env: GitEnv): Promise<string[]> {
  const state = configState(worktree, env);
  if (state === null) return readDriverGuard(cwd, pre, env);
  const known = guards.get(worktree.gitDir);
  if (known?.state === state) return known.guard;
  const guard = readDriverGuard(cwd, pre, env);
  guards.set(worktree.gitDir, { state, guard });
  return guard;
}

/** Git for `worktree`, never for whatever repository the folder looks like it belongs to. */
export function boundGit(worktree: BoundWorktree, env: GitEnv = process.env): BoundGit {
  // SECURITY I3: no reflog (git appends to one through a link), no split index (files beside ours).
  const pre = [`--git-dir=${worktree.gitDir}`, `--work-tree=${worktree.path}`, '-c', 'core.logAllRefUpdates=false', '-c', 'core.splitIndex=false'];
  const own = { GIT_INDEX_FILE: ownIndexPath(worktree) };
  // The worktree's folder may be gone: git then runs from the repository's git dir (the work tree stays named).
  const cwd = () => (lstatSync(worktree.path, { throwIfNoEntry: false })?.isDirectory() ? worktree.path : worktree.commonDir);
  let guard: Promise<string[]> | undefined;
  const run = async (args: string[]): Promise<GitResult> => {
    // Before every command, not only at the checks: the driver guard is kept per config state,
    // and a commondir a CLI pointed elsewhere would bring that repository's config with it.
    const moved = commonDirProblem(worktree) ?? ownIndexProblem(worktree);
    if (moved) return refused(moved);
    guard ??= guardFor(worktree, cwd(), pre, env);
    const drivers = await unguardable(guard);
    if (typeof drivers === 'string') return refused(drivers);
    // Ours is made from HEAD when there is none (a worktree made by an earlier version, or without an index).
    if (!hasOwnIndex(worktree)) await guardedGit(cwd(), [...pre, 'read-tree', 'HEAD'], env, drivers, undefined, own);
    const result = await guardedGit(cwd(), [...pre, ...args], env, drivers, undefined, own);
    syncAdminIndex(worktree);
    return result;
  };
  return {
    run,
    runOrThrow: async (args) => {
      const result = await run(args);
      if (!result.ok) throw new Error(`git ${args.join(' ')} failed: ${result.stderr.trim() || `exit ${result.code}`}`);
      return result.stdout;
    },
  };
}

/** The repository's common git dir, absolute (`.git` of the main checkout). */
export async function commonGitDir(repoRoot: string, env?: GitEnv): Promise<string> {
  const out = (await gitOrThrow(repoRoot, ['rev-parse', '--git-common-dir'], env)).trim();
  return realpathSync(isAbsolute(out) ? out : resolve(repoRoot, out));
}

/**
 * Where a worktree that was just made keeps its admin folder. Asked right after
 * `git worktree add`, before any CLI ran there, so the answer can be trusted; checked against
 * the repository's common dir all the same.
 */
export async function locateWorktree(repoRoot: string, path: string, env?: GitEnv): Promise<BoundWorktree> {
  // rev-parse runs no filter or merge driver: no driver guard (a linked worktree's is read anew each time, one more process per run).
  const [commonDir, located] = await Promise.all([commonGitDir(repoRoot, env), guardedGit(path, ['rev-parse', '--absolute-git-dir'], env ?? process.env, [])]);
  if (!located.ok) throw gitErrors.failed(['rev-parse', '--absolute-git-dir'], located.stderr, located.code);
  const gitDir = realpathSync(located.stdout.trim());
  if (dirname(dirname(gitDir)) !== commonDir) throw new Error(`the worktree's git dir ${gitDir} is not inside ${commonDir}/worktrees`);
  const worktree = { path, gitDir, commonDir };
  const problem = ownIndexProblem(worktree);
  if (problem) throw new Error(problem);
  seedOwnIndex(worktree);
  return worktree;
}

export interface ExpectedLine {
  /** The commit the worktree started from: it must be HEAD or an ancestor of HEAD; undefined: any commit. */
  base?: string;
  /** The branch HEAD must be on (`refs/heads/<branch>`); undefined: any, detached included. */
  branch?: string;
}

function real(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}

/**
 * The admin folder names the common dir: a rewritten `commondir` would lead every git bound to
 * the admin folder to another repository's config (its filters) and refs. Null: it still names ours.
 * Walks the admin folder first (SECURITY I3: nothing planted there is followed, commondir included).
 */
function commonDirProblem(worktree: BoundWorktree): string | null {
  const planted = adminFolderProblem(worktree.gitDir);
  if (planted) return planted;
  let common: string;
  try {
    common = readFileSync(resolve(worktree.gitDir, 'commondir'), 'utf8').trim();
  } catch {
    return `the worktree's git dir ${worktree.gitDir} is gone (the worktree was removed or pruned)`;
  }
  if (real(resolve(worktree.gitDir, common)) !== real(worktree.commonDir)) return `the worktree's git dir ${worktree.gitDir} no longer belongs to the repository at ${worktree.commonDir} (its commondir says ${common})`;
  return null;
}

/**
 * The folder is still a folder, and its `.git` file and the admin folder still point at each
 * other (what a CLI can break with rm or a write); no git is run. Null: they do.
 */
export function linkProblem(worktree: BoundWorktree): string | null {
  if (!lstatSync(worktree.path, { throwIfNoEntry: false })?.isDirectory()) return `${worktree.path} is no longer a folder`;
  const dotGit = resolve(worktree.path, '.git');
  const stat = lstatSync(dotGit, { throwIfNoEntry: false });
  if (!stat) return `${dotGit} is gone`;
  if (!stat.isFile()) return `${dotGit} is no longer the worktree's .git file (it is a ${stat.isDirectory() ? 'folder' : stat.isSymbolicLink() ? 'symbolic link' : 'special file'})`;
  const pointer = /^gitdir: (.+?)\r?\n?$/.exec(readFileSync(dotGit, 'utf8'))?.[1];
  if (!pointer || real(resolve(worktree.path, pointer)) !== real(worktree.gitDir)) {
    return `${dotGit} no longer points at the worktree's git dir ${worktree.gitDir}`;
  }
  const common = commonDirProblem(worktree);
  if (common) return common;
  let back: string;
  try {
    back = readFileSync(resolve(worktree.gitDir, 'gitdir'), 'utf8').trim();
  } catch {
    return `the worktree's git dir ${worktree.gitDir} is gone (the worktree was removed or pruned)`;
  }
  // Absolute, or relative to the admin folder (worktree.useRelativePaths, git 2.48+).
  if (real(resolve(worktree.gitDir, back)) !== real(dotGit)) return `the repository no longer lists ${worktree.path} as this worktree (it points at ${back})`;
  return null;
}

export interface WorktreeCheck {
  /** Why the folder is no longer the worktree it was; null: it still is. */
  problem: string | null;
  /** HEAD's commit ('' when there is none). */
  head: string;
  /** The branch HEAD is on (`refs/heads/...`), '' when detached. */
  branchRef: string;
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
export async function checkWorktree(worktree: BoundWorktree, expected: ExpectedLine, env?: GitEnv): Promise<WorktreeCheck> {
  const failed = (problem: string, head = '', branchRef = ''): WorktreeCheck => ({ problem, head, branchRef });
  const broken = linkProblem(worktree);
  if (broken) return failed(broken);
  const bound = boundGit(worktree, env);
  // One git for the three answers (between waves of tasks every spawn is on the critical path).
  // `--symbolic-full-name HEAD` follows symbolic refs to the end, as a commit on HEAD does: a
  // branch made a symbolic ref (to the user's branch, say) shows as the branch it leads to.
  // `--`: every argument is a revision, never a path a CLI could have created.
  const read = await bound.run(['rev-parse', '--git-common-dir', 'HEAD^{commit}', '--symbolic-full-name', 'HEAD', '--']);
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
  return { problem: null, head: headId, branchRef };
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

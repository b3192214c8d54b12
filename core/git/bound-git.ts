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
import { gitErrors } from './errors.ts';
import { clientOf, type GitClient } from './git-client.ts';
import { gitOrThrow, guardOfState, guardedGit, readDriverGuard, refused, unguardable, type GitEnv, type GitResult } from './git.ts';
import type { WorktreeGit } from './worktree-git.ts';

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

/** Git bound to one worktree: the one client shape (git-client.ts). */
export type BoundGit = GitClient;

/** The worktree's driver guard: one `git config` per state of the config files it reads (shared with any folder whose gits read the same, git.ts). */
function guardFor(worktree: BoundWorktree, cwd: string, pre: string[], env: GitEnv): Promise<string[]> {
  return guardOfState(configState(worktree, env), () => readDriverGuard(cwd, pre, env));
}

/** What every bound git starts with. SECURITY I3: no reflog (git appends to one through a link), no split index (files beside ours). */
function boundArgs(worktree: BoundWorktree): string[] {
  return [`--git-dir=${worktree.gitDir}`, `--work-tree=${worktree.path}`, '-c', 'core.logAllRefUpdates=false', '-c', 'core.splitIndex=false'];
}

/** Where a bound git runs: the worktree's folder, or the repository's git dir once the folder is gone (the work tree stays named). */
function boundCwd(worktree: BoundWorktree): string {
  return lstatSync(worktree.path, { throwIfNoEntry: false })?.isDirectory() ? worktree.path : worktree.commonDir;
}

/**
 * Starts reading the worktree's driver guard before its next bound git needs it (a run asks as
 * its CLI starts: the check after the CLI then waits for no `git config`, unless a config file
 * changed meanwhile, which reads it anew: SECURITY I2). Only past the same checks as any bound git's.
 */
export function readBoundGuardAhead(worktree: BoundWorktree, env: GitEnv = process.env): void {
  if (commonDirProblem(worktree) ?? ownIndexProblem(worktree)) return;
  void unguardable(guardFor(worktree, boundCwd(worktree), boundArgs(worktree), env));
}

/** Git for `worktree`, never for whatever repository the folder looks like it belongs to. */
export function boundGit(worktree: BoundWorktree, env: GitEnv = process.env): BoundGit {
  const pre = boundArgs(worktree);
  const own = { GIT_INDEX_FILE: ownIndexPath(worktree) };
  const cwd = () => boundCwd(worktree);
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
  return clientOf(run);
}

/** The repository's common git dir, absolute (`.git` of the main checkout). */
export async function commonGitDir(repoRoot: string, env?: GitEnv): Promise<string> {
  return commonDirOf(repoRoot, await gitOrThrow(repoRoot, ['rev-parse', '--git-common-dir'], env));
}

/** What `git rev-parse --git-common-dir` printed in `dir`, as an absolute real path. */
export function commonDirOf(dir: string, printed: string): string {
  const out = printed.trim();
  return realpathSync(isAbsolute(out) ? out : resolve(dir, out));
}

/**
 * Where a worktree keeps its admin folder: read from its `.git` file, then both links checked
 * (the file names the admin folder, the admin folder names the file back, its commondir is the
 * repository's) and the folder walked (SECURITY I3), so a rewritten `.git` cannot send git to
 * another repository. Asked right after `git worktree add`, before any CLI ran there, or for a
 * workflow's slot, checked the same way. `commonDir`: the repository's common dir when the
 * caller read it already (RepoState.commonDir), else asked of git in `repoRoot`.
 */
export async function locateWorktree(repoRoot: string, path: string, env?: GitEnv, commonDir?: string): Promise<BoundWorktree> {
  const common = commonDir ?? (await commonGitDir(repoRoot, env));
  const dotGit = resolve(path, '.git');
  const pointer = lstatSync(dotGit, { throwIfNoEntry: false })?.isFile() ? gitdirPointer(readFileSync(dotGit, 'utf8')) : undefined;
  const gitDir = pointer === undefined ? null : real(resolve(path, pointer));
  if (gitDir === null) throw gitErrors.worktreeUnsafe(path, `${dotGit} is not a worktree's .git file naming its git dir`);
  if (dirname(dirname(gitDir)) !== common) throw gitErrors.worktreeForeign(gitDir, common);
  const worktree = { path, gitDir, commonDir: common };
  const problem = linkProblem(worktree) ?? ownIndexProblem(worktree);
  if (problem) throw gitErrors.worktreeUnsafe(path, problem);
  seedOwnIndex(worktree);
  return worktree;
}

/** The path a worktree's `.git` file points at ("gitdir: <path>"), undefined when it does not. */
function gitdirPointer(text: string): string | undefined {
  return /^gitdir: (.+?)\r?\n?$/.exec(text)?.[1];
}

export function real(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}

/** A file of the worktree's admin folder, trimmed; null when it cannot be read. */
export function adminFile(worktree: BoundWorktree, name: string): string | null {
  try {
    return readFileSync(resolve(worktree.gitDir, name), 'utf8').trim();
  } catch {
    return null;
  }
}

/** Why a worktree whose admin folder cannot be read is not one any more. */
export const goneProblem = (worktree: BoundWorktree) => `the worktree's git dir ${worktree.gitDir} is gone (the worktree was removed or pruned)`;

/**
 * The admin folder names the common dir: a rewritten `commondir` would lead every git bound to
 * the admin folder to another repository's config (its filters) and refs. Null: it still names ours.
 * Walks the admin folder first (SECURITY I3: nothing planted there is followed, commondir included).
 */
export function commonDirProblem(worktree: BoundWorktree): string | null {
  const planted = adminFolderProblem(worktree.gitDir);
  if (planted) return planted;
  const common = adminFile(worktree, 'commondir');
  if (common === null) return goneProblem(worktree);
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
  const pointer = gitdirPointer(readFileSync(dotGit, 'utf8'));
  if (!pointer || real(resolve(worktree.path, pointer)) !== real(worktree.gitDir)) {
    return `${dotGit} no longer points at the worktree's git dir ${worktree.gitDir}`;
  }
  const common = commonDirProblem(worktree);
  if (common) return common;
  const back = adminFile(worktree, 'gitdir');
  if (back === null) return goneProblem(worktree);
  // Absolute, or relative to the admin folder (worktree.useRelativePaths, git 2.48+).
  if (real(resolve(worktree.gitDir, back)) !== real(dotGit)) return `the repository no longer lists ${worktree.path} as this worktree (it points at ${back})`;
  return null;
}

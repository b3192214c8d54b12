/**
 * A detached worktree of ours: what `git worktree add --detach <path> <commit>` makes, by one
 * git process instead of three (git's own runs `update-ref` and `reset --hard` as processes of
 * their own, on every run's way to its CLI). The admin folder `<common dir>/worktrees/<name>`
 * and the worktree's `.git` file are written as gitrepository-layout(5) describes them
 * (`commondir`, `gitdir`, `HEAD`; `locked` while they are written, as git does, so a prune
 * meanwhile leaves them), then `read-tree -u --reset` fills the index and the folder, as
 * `reset --hard` does. Where the repository keeps what this does not write (reftable refs,
 * per-worktree config, a sparse checkout: named in any config file git reads, or hidden behind
 * an include or a `-c` of the caller), on Windows, where `<common dir>/worktrees` is a link, or
 * where the folder or the admin folder's name is taken, git's own `worktree add` makes it.
 */
import { existsSync, lstatSync, mkdirSync, readFileSync, realpathSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { configFiles } from './config-state.ts';
import { gitOrThrow, type GitEnv } from './git.ts';

/** Config that makes git's worktree add write more than this does (or write it elsewhere). */
const NEEDS_GIT = /refstorage|worktreeconfig|sparsecheckout|include/i;

export async function addDetachedWorktree(repoRoot: string, commonDir: string | undefined, path: string, commit: string, env: GitEnv = process.env): Promise<void> {
  const admin = commonDir && process.platform !== 'win32' && !needsGit(commonDir, env) ? claimAdmin(commonDir, path) : null;
  if (admin === null) {
    await gitOrThrow(repoRoot, ['worktree', 'add', '--detach', '-q', path, commit], env);
    return;
  }
  try {
    writeFileSync(join(admin, 'commondir'), '../..\n');
    writeFileSync(join(admin, 'gitdir'), `${join(realpathSync(path), '.git')}\n`);
    writeFileSync(join(admin, 'HEAD'), `${commit}\n`);
    writeFileSync(join(path, '.git'), `gitdir: ${admin}\n`);
    await gitOrThrow(repoRoot, [`--git-dir=${admin}`, `--work-tree=${path}`, 'read-tree', '-u', '--reset', commit], env);
    unlinkSync(join(admin, 'locked'));
  } catch (error) {
    rmSync(path, { recursive: true, force: true });
    rmSync(admin, { recursive: true, force: true });
    throw error;
  }
}

/**
 * The worktree's folder and its admin folder `<common dir>/worktrees/<folder's name>`, made
 * (the admin folder locked), or null when either exists already (git picks another name then).
 */
function claimAdmin(commonDir: string, path: string): string | null {
  const folder = join(commonDir, 'worktrees');
  const admin = join(folder, basename(path));
  // Nothing is written through a link: a `worktrees` that is not a plain folder is git's to meet (locateWorktree refuses where it leads).
  const kind = lstatSync(folder, { throwIfNoEntry: false });
  if ((kind && !kind.isDirectory()) || existsSync(path) || existsSync(admin)) return null;
  try {
    mkdirSync(folder, { recursive: true });
    mkdirSync(admin);
  } catch {
    return null;
  }
  writeFileSync(join(admin, 'locked'), 'initializing');
  try {
    mkdirSync(path);
  } catch {
    rmSync(admin, { recursive: true, force: true });
    return null;
  }
  return admin;
}

/** Whether the checkout's git is told, or a config file it reads names, what git's worktree add handles and this does not. */
function needsGit(commonDir: string, env: GitEnv): boolean {
  if (env.GIT_CONFIG_COUNT || env.GIT_CONFIG_PARAMETERS) return true;
  return configFiles({ commonDir, gitDir: commonDir }, env).some((file) => {
    try {
      return statSync(file).isFile() && NEEDS_GIT.test(readFileSync(file, 'utf8'));
    } catch {
      return false;
    }
  });
}

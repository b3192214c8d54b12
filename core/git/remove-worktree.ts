/**
 * Removing a worktree of ours: by the folders recorded when it was made, else through git (which
 * finds it by the path among the worktrees it registered), else its folder deleted and git's
 * record pruned. One way for a run's worktree and a workflow's slot. Where `<common dir>/worktrees`
 * is no plain folder any more (a link a CLI put there), only the worktree's own folder goes: git's
 * remove and prune delete admin folders under it, and would follow the link (SECURITY I3).
 */
import { lstatSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { BoundWorktree } from './bound-git.ts';
import { git, type GitEnv } from './git.ts';
import { worktreeRemoved } from './verified-worktree.ts';

/** Removes the worktree at `path`; `recorded`: its folders as found when it was made (none: git finds them). */
export async function removeWorktree(repoRoot: string, path: string, recorded: BoundWorktree | undefined, env?: GitEnv): Promise<void> {
  if (recorded) {
    worktreeRemoved(recorded);
    if (!isPlainFolder(join(recorded.commonDir, 'worktrees'))) return rm(path, { recursive: true, force: true });
    if (await removeRecorded(recorded)) return;
  }
  const removed = await git(repoRoot, ['worktree', 'remove', '--force', '--force', path], env);
  if (removed.ok) return;
  await rm(path, { recursive: true, force: true });
  await git(repoRoot, ['worktree', 'prune'], env);
}

/**
 * What `git worktree remove --force --force` deletes, without its process (one fewer at the end
 * of every run): the worktree's folder and its admin folder `<common dir>/worktrees/<name of the
 * folder>`, neither followed where it is a link. SECURITY I3: by the paths recorded before any
 * CLI ran there, never by what the `.git` file or the admin folder's files say by then; an admin
 * folder of another name (git numbers one whose name was taken) is left to git. False when
 * nothing was deleted this way, or a deletion failed.
 */
async function removeRecorded(worktree: BoundWorktree): Promise<boolean> {
  if (worktree.gitDir !== join(worktree.commonDir, 'worktrees', basename(worktree.path))) return false;
  try {
    await Promise.all([rm(worktree.path, { recursive: true, force: true }), rm(worktree.gitDir, { recursive: true, force: true })]);
    return true;
  } catch {
    return false;
  }
}

const isPlainFolder = (path: string) => lstatSync(path, { throwIfNoEntry: false })?.isDirectory() === true;

/**
 * A worktree's git admin folder (`<common dir>/worktrees/<name>`) as our host-side git may
 * touch it. The CLI working in the worktree can write there (inside bwrap by design), and git
 * follows symbolic links when it writes HEAD's companions (ORIG_HEAD, MERGE_HEAD, ...), appends
 * to a reflog or locks the index: a link planted there would lead our git (root, outside the
 * sandbox) to a file of the user's or the host's. So before every git of ours the folder is
 * walked: only folders and plain files with one link are allowed. `modules/` (the git dirs of
 * submodules, whose objects a local clone hard-links) is not ours to write: git of ours never
 * recurses into submodules (git.ts NO_HOOKS).
 */
import { lstatSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

/** More entries than git ever keeps there: a folder this full was filled by someone else. */
const MAX_ENTRIES = 4096;

function kind(stat: import('node:fs').Stats): string {
  if (stat.isSymbolicLink()) return 'a symbolic link';
  if (stat.isFIFO()) return 'a named pipe';
  if (stat.isSocket()) return 'a socket';
  if (stat.isBlockDevice() || stat.isCharacterDevice()) return 'a device';
  return 'a special file';
}

/**
 * Why git of ours may not run on the admin folder `gitDir` (null: it may). SECURITY I3: no
 * host-side process of ours follows a path a CLI could have written.
 */
export function adminFolderProblem(gitDir: string): string | null {
  const top = lstatSync(gitDir, { throwIfNoEntry: false });
  if (!top) return `the worktree's git dir ${gitDir} is gone (the worktree was removed or pruned)`;
  if (!top.isDirectory()) return `the worktree's git dir ${gitDir} is ${kind(top)}, not a folder`;
  const folders = [gitDir];
  let seen = 0;
  while (folders.length) {
    const folder = folders.pop()!;
    let names: string[];
    try {
      names = readdirSync(folder);
    } catch (error) {
      return `the worktree's git dir could not be read at ${folder} (${(error as NodeJS.ErrnoException).code ?? String(error)})`;
    }
    for (const name of names) {
      if (++seen > MAX_ENTRIES) return `the worktree's git dir ${gitDir} holds more than ${MAX_ENTRIES} entries`;
      const path = join(folder, name);
      const stat = lstatSync(path, { throwIfNoEntry: false });
      if (!stat) continue; // gone meanwhile (a lock file of a git that just ended)
      if (stat.isDirectory()) {
        if (!(folder === gitDir && name === 'modules')) folders.push(path);
      }
      else if (!stat.isFile()) return `${relative(gitDir, path)} in the worktree's git dir ${gitDir} is ${kind(stat)} (planted there: git of ours would follow it)`;
      else if (stat.nlink > 1) return `${relative(gitDir, path)} in the worktree's git dir ${gitDir} has ${stat.nlink} hard links (planted there: git of ours would write through it)`;
    }
  }
  return null;
}

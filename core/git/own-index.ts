/**
 * Our own index for each worktree, outside its admin folder. Git locks an index through
 * symbolic links, so the admin folder's `index` (which the CLI can replace with a link to the
 * user's `.git/index`, or to a file that does not exist yet) is never one our git writes:
 * ours live in `<common dir>/supervisor/index/<admin name>` (read-only inside the sandbox), made
 * from the admin index when git has just made the worktree (before any CLI ran there), else
 * from HEAD. After a git of ours changed it, a copy replaces the admin folder's `index` by a
 * rename (which replaces a link, never writes through it), so the CLI and the person who opens
 * a kept worktree see what git did.
 */
import { copyFileSync, lstatSync, mkdirSync, renameSync, rmSync, unlinkSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { basename, join } from 'node:path';

interface Worktree {
  gitDir: string;
  commonDir: string;
}

/** The state of each own index when it was last copied into its admin folder. */
const synced = new Map<string, string>();

function signature(path: string): string {
  const stat = lstatSync(path, { throwIfNoEntry: false, bigint: true });
  return stat ? `${stat.ino} ${stat.size} ${stat.mtimeNs} ${stat.ctimeNs}` : '';
}

function folderOf(worktree: Worktree): string {
  return join(worktree.commonDir, 'supervisor', 'index');
}

/** Where our index for `worktree` is. */
export function ownIndexPath(worktree: Worktree): string {
  return join(folderOf(worktree), basename(worktree.gitDir));
}

/**
 * Why our index may not be used (null: it may): its folders and the file are ours only when
 * they are plain folders and a plain file. SECURITY I3.
 */
export function ownIndexProblem(worktree: Worktree): string | null {
  const parts = [join(worktree.commonDir, 'supervisor'), folderOf(worktree)];
  for (const part of parts) {
    const stat = lstatSync(part, { throwIfNoEntry: false });
    if (stat && !stat.isDirectory()) return `${part} is not a folder (supervisor keeps its own index files there)`;
  }
  const file = lstatSync(ownIndexPath(worktree), { throwIfNoEntry: false });
  if (file && (!file.isFile() || file.nlink > 1)) return `${ownIndexPath(worktree)} is not a plain file (supervisor's own index for the worktree)`;
  return null;
}

/** Whether our index for `worktree` exists; when not, its folder is made (git then builds it from HEAD). */
export function hasOwnIndex(worktree: Worktree): boolean {
  if (lstatSync(ownIndexPath(worktree), { throwIfNoEntry: false })?.isFile() === true) return true;
  mkdirSync(folderOf(worktree), { recursive: true });
  return false;
}

/**
 * Right after `git worktree add`, before any CLI ran: our index starts as git's (a stale one of
 * a pruned worktree of the same name goes).
 */
export function seedOwnIndex(worktree: Worktree): void {
  const own = ownIndexPath(worktree);
  mkdirSync(folderOf(worktree), { recursive: true });
  rmSync(own, { force: true });
  try {
    copyFileSync(join(worktree.gitDir, 'index'), own);
    synced.set(own, signature(own));
  } catch {
    // No index yet: the first git builds ours from HEAD.
  }
}

/** After a git of ours: when our index changed, the admin folder's is replaced by a copy of it. */
export function syncAdminIndex(worktree: Worktree): void {
  const own = ownIndexPath(worktree);
  const now = signature(own);
  if (!now || synced.get(own) === now) return;
  const temp = join(worktree.gitDir, `index.supervisor-${randomBytes(6).toString('hex')}`);
  try {
    // COPYFILE_EXCL: a new file, never one that is there (a link included).
    copyFileSync(own, temp, 1);
    renameSync(temp, join(worktree.gitDir, 'index'));
    synced.set(own, now);
  } catch {
    try {
      unlinkSync(temp);
    } catch {
      // never made
    }
  }
}

/** The worktree is gone: so is our index for it. */
export function dropOwnIndex(worktree: Worktree): void {
  const own = ownIndexPath(worktree);
  synced.delete(own);
  rmSync(own, { force: true });
}

/**
 * A copy from the user's checkout into a worktree (set-up's `copy`) that follows no link on
 * either side (SECURITY I3): the worktree may hold links a repository committed (a `base:`
 * commit) or an earlier worker left in a reused slot, and a copy led through one would write the
 * user's file (a `.env`) into a host folder. Every folder on the way to the destination must be
 * a real folder (made one at a time when missing), whatever is at the destination is removed
 * first (a link goes as a link), and the copy then lands in a fresh path; links inside a copied
 * folder are copied as links, never followed.
 */
import { cp, lstat, mkdir, rm } from 'node:fs/promises';
import { join, sep } from 'node:path';

/** True when no part of `rel` under `root` is a link, and every part but the last is a folder. */
export async function plainPathUnder(root: string, rel: string, last: 'exists' | 'any'): Promise<boolean> {
  const parts = rel.split(sep);
  let at = root;
  for (const [i, part] of parts.entries()) {
    at = join(at, part);
    const info = await lstat(at).catch(() => null);
    const isLast = i === parts.length - 1;
    if (!info) return isLast ? last === 'any' : false;
    if (info.isSymbolicLink() || (!isLast && !info.isDirectory())) return false;
  }
  return true;
}

/**
 * Copies `rel` from `fromRoot` to `toRoot`; false (nothing written) when a folder on the way to
 * the destination is a link or not a folder.
 */
export async function copyWithoutLinks(fromRoot: string, toRoot: string, rel: string): Promise<boolean> {
  const parts = rel.split(sep);
  let at = toRoot;
  for (const part of parts.slice(0, -1)) {
    at = join(at, part);
    const info = await lstat(at).catch(() => null);
    if (!info) await mkdir(at);
    else if (info.isSymbolicLink() || !info.isDirectory()) return false;
  }
  const target = join(toRoot, rel);
  // rm never follows a link: a link at the destination goes, and what it points at stays.
  await rm(target, { recursive: true, force: true });
  await cp(join(fromRoot, rel), target, { recursive: true, verbatimSymlinks: true, errorOnExist: true, force: false });
  return true;
}

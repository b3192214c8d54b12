/**
 * The files the glob packer's walk would find, as git lists them: one `git ls-files` instead of
 * a readdir and a .gitignore match per folder (the walk's cost on a large repository). Used
 * only where the two agree — the root is the top of a git work tree and .gitignore applies —
 * and the list is made to be the walk's exactly:
 *
 * - the same rules: the .gitignore files and `.git/info/exclude` (of a `.git` folder), not the
 *   user's core.excludesFile, which the walk never reads;
 * - tracked files those rules match are left out (`-c -i`), as the walk never sees them;
 * - the default ignore list and `.git` folders, by name, as the walk skips them;
 * - what is there now: each listed path is checked with lstat (its folders too), and only
 *   regular files reached without a symbolic link are kept (the walk follows none). A deleted
 *   tracked file is dropped; a listed path that is a folder (a submodule, a file replaced by a
 *   folder) or a folder git would not enter (a nested repository) means the walk must decide
 *   (null).
 */
import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import { git } from '../engine/git.ts';
import { isDefaultIgnored } from './default-ignores.ts';

export interface GitListOptions {
  /** Apply the default ignore list (default_ignores). */
  defaults: boolean;
  env: Record<string, string | undefined>;
}

const GIT_SEGMENT = /(?:^|\/)\.git(?:\/|$)/i;

/** The exclude flags that read what the walk reads. */
function excludeArgs(root: string, dotGitIsFolder: boolean): string[] {
  const args = ['--exclude-per-directory=.gitignore'];
  const exclude = join(root, '.git', 'info', 'exclude');
  if (dotGitIsFolder && lstatSync(exclude, { throwIfNoEntry: false })) args.push(`--exclude-from=${exclude}`);
  return args;
}

const split = (stdout: string) => stdout.split('\0').filter(Boolean);

/**
 * Repository-relative regular files of the work tree at `root` that the glob packer's walk would
 * find (before include/exclude globs), in no particular order; null when git cannot tell (no
 * repository at `root`, git failing, submodules or nested repositories): then walk.
 */
export async function gitListedFiles(root: string, options: GitListOptions): Promise<string[] | null> {
  const dotGit = lstatSync(join(root, '.git'), { throwIfNoEntry: false });
  if (!dotGit || dotGit.isSymbolicLink()) return null;
  const excludes = excludeArgs(root, dotGit.isDirectory());
  const base = ['ls-files', '-z'];
  const env = { ...options.env, GIT_OPTIONAL_LOCKS: '0', LC_ALL: 'C' };
  const [listed, ignoredTracked] = await Promise.all([git(root, [...base, '-c', '-o', ...excludes], env), git(root, [...base, '-c', '-i', ...excludes], env)]);
  if (!listed.ok || !ignoredTracked.ok) return null;
  const drop = new Set(split(ignoredTracked.stdout));
  const folders = new Map<string, boolean>([['', true]]);
  /** Whether a folder is a real folder (no symbolic link on the way), as the walk would enter it. */
  const realFolder = (dir: string): boolean => {
    let known = folders.get(dir);
    if (known === undefined) {
      const slash = dir.lastIndexOf('/');
      known = realFolder(slash === -1 ? '' : dir.slice(0, slash)) && lstatSync(join(root, dir), { throwIfNoEntry: false })?.isDirectory() === true;
      folders.set(dir, known);
    }
    return known;
  };
  const files: string[] = [];
  for (const path of split(listed.stdout)) {
    // A folder git would not enter: a nested repository (untracked, listed with a trailing "/").
    if (path.endsWith('/')) return null;
    if (drop.has(path) || GIT_SEGMENT.test(path) || (options.defaults && isDefaultIgnored(path))) continue;
    const slash = path.lastIndexOf('/');
    if (!realFolder(slash === -1 ? '' : path.slice(0, slash))) continue;
    let stats;
    try {
      stats = lstatSync(join(root, path), { throwIfNoEntry: false });
    } catch {
      continue; // ENOTDIR and the like: not there as a file
    }
    if (stats?.isDirectory()) return null; // a submodule, or a file that became a folder: the walk descends
    if (stats?.isFile()) files.push(path);
  }
  return files;
}

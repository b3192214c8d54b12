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
 * - what is there now: only regular files reached without a symbolic link are kept (the walk
 *   follows none); a deleted tracked file is dropped. A submodule, a file replaced by a folder,
 *   a folder replaced by a link or a folder git would not enter (a nested repository) means
 *   the walk must decide (null).
 */
import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import { git } from './git.ts';
import { isDefaultIgnored } from '../files/default-ignores.ts';

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

/** One entry of `ls-files -v -s`: its tag, the index mode (tracked files), the path. */
interface Entry {
  tag: string;
  mode: string;
  path: string;
}

function parseEntry(line: string): Entry {
  const tag = line.slice(0, 1);
  if (tag === '?') return { tag, mode: '', path: line.slice(2) };
  const tab = line.indexOf('\t');
  return { tag, mode: line.slice(2, 8), path: line.slice(tab + 1) };
}

/** What the work tree holds at a path: a regular file, something else, or a folder. */
function kindAt(root: string, path: string): 'file' | 'other' | 'folder' {
  try {
    const stats = lstatSync(`${root}/${path}`, { throwIfNoEntry: false });
    return stats?.isFile() ? 'file' : stats?.isDirectory() ? 'folder' : 'other';
  } catch {
    return 'other'; // ENOTDIR and the like: not there as a file
  }
}

/**
 * Repository-relative regular files of the work tree at `root` that the glob packer's walk would
 * find (before include/exclude globs), in no particular order; null when git cannot tell (no
 * repository at `root`, git failing, submodules or nested repositories): then walk.
 *
 * Every file listed is looked at as it is now (lstat): a tracked file deleted, replaced by a link
 * or by a folder is seen as the walk would see it, and a submodule in the index hands over to it.
 */
export async function gitListedFiles(root: string, options: GitListOptions): Promise<string[] | null> {
  const dotGit = lstatSync(join(root, '.git'), { throwIfNoEntry: false });
  if (!dotGit || dotGit.isSymbolicLink()) return null;
  const excludes = excludeArgs(root, dotGit.isDirectory());
  const env = { ...options.env, GIT_OPTIONAL_LOCKS: '0', LC_ALL: 'C' };
  // Asked at once: the tracked files are looked at while git matches them against the rules.
  const ignoredTracked = git(root, ['ls-files', '-z', '-c', '-i', ...excludes], env);
  // -v: tags (? untracked). Not -m: where the index's stat data is stale (a fresh clone, whose
  // index git writes as it checks files out), git compares every such file's content with its
  // blob (~100 ms on vitejs/vite); what is there now is one lstat each, below.
  const listed = await git(root, ['ls-files', '-z', '-v', '-s', '-c', '-o', ...excludes], env);
  if (!listed.ok) return null;
  const entries = split(listed.stdout).map(parseEntry);
  const tracked = new Map<string, string>();
  let untracked = 0;
  for (const { tag, mode, path } of entries) {
    if (tag === '?') untracked++;
    else tracked.set(path, mode);
  }
  const trackedFolders = new Set<string>();
  if (untracked) for (const path of tracked.keys()) for (let slash = path.indexOf('/'); slash !== -1; slash = path.indexOf('/', slash + 1)) trackedFolders.add(path.slice(0, slash));
  const named = (path: string) => !GIT_SEGMENT.test(path) && !(options.defaults && isDefaultIgnored(path));
  const files: string[] = [];
  for (const [path, mode] of tracked) {
    if (mode === '160000') return null; // a submodule: the walk descends into it
    if (!named(path)) continue;
    const kind = kindAt(root, path); // a link (the index's or one put there since) or a deleted file is no file
    if (kind === 'folder') return null; // a file that became a folder: the walk descends
    if (kind === 'file') files.push(path);
  }
  const ignored = await ignoredTracked;
  if (!ignored.ok) return null;
  const drop = new Set(split(ignored.stdout));
  const kept = drop.size ? files.filter((path) => !drop.has(path)) : files;
  for (const { tag, path } of entries) {
    if (tag !== '?') continue;
    // A nested repository (listed with a trailing "/"), or a tracked folder now a link (its files look unchanged to git).
    if (path.endsWith('/') || trackedFolders.has(path)) return null;
    if (named(path) && kindAt(root, path) === 'file') kept.push(path);
  }
  return kept;
}

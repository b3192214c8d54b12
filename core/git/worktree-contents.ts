/**
 * What `git add -A` in a worktree would silently lose or get wrong: work inside a submodule
 * (its own commits and files are not the superproject's), a nested repository the CLI
 * created (added as a gitlink to a commit that exists only inside it), and ignored files
 * (never added). Each is named in a notice; a gitlink to a commit that exists nowhere the
 * user can reach is taken back out of the commit.
 */
import { existsSync, readdirSync, type Dirent } from 'node:fs';
import { join } from 'node:path';
import type { BoundGit } from './bound-git.ts';
import { git, type GitEnv } from './git.ts';
import { nameList } from '../text/name-list.ts';

export interface WorktreeContents {
  /** Submodules with new commits or changed files inside them. */
  submodules: string[];
  /** Untracked folders holding a repository of their own (`<dir>/.git`). */
  nestedRepos: string[];
  /** Ignored files and folders the run wrote (as git status shows them). */
  ignored: string[];
  /** A gitlink (mode 160000) is in the index or the worktree: the commit may hold one. */
  gitlinks: boolean;
}

/**
 * Reads `git status --porcelain=v2 -z` with ignored entries: ordinary entries ("1 XY sub ..."),
 * renames ("2 ... path\0orig"), untracked ("? path") and ignored ("! path").
 */
export function readContents(status: string, worktreePath: string): WorktreeContents & { changed: boolean } {
  const contents: WorktreeContents = { submodules: [], nestedRepos: [], ignored: [], gitlinks: false };
  let changed = false;
  const records = status.split('\0');
  for (let i = 0; i < records.length; i++) {
    const record = records[i]!;
    if (!record) continue;
    const kind = record[0];
    if (kind === '!') {
      contents.ignored.push(record.slice(2));
      continue;
    }
    changed = true;
    if (kind === '?') {
      const path = record.slice(2);
      if (path.endsWith('/')) contents.nestedRepos.push(...nestedRepositories(worktreePath, path.slice(0, -1)));
      continue;
    }
    if (kind === '1' || kind === '2') {
      const fields = record.split(' ');
      const sub = fields[2] ?? 'N...';
      const path = fields.slice(kind === '1' ? 8 : 9).join(' ');
      // S<c><m><u>: C the commit changed, M tracked changes inside, U untracked files inside.
      if (sub.startsWith('S') && sub !== 'S...') contents.submodules.push(path);
      // "1 XY sub mH mI mW ...": a gitlink in HEAD, the index or the worktree.
      if (fields.slice(3, 6).includes('160000')) contents.gitlinks = true;
      if (kind === '2') i++; // the original path follows
    }
  }
  return { ...contents, changed };
}

/** Folders searched for a nested repository below an untracked folder (git status shows only the top one). */
const NESTED_SEARCH_LIMIT = 2000;

/**
 * Repositories in the untracked folder `dir` (itself, or any folder below it holding `.git`):
 * `git add -A` would add each as a gitlink to a commit that exists only inside it.
 */
function nestedRepositories(root: string, dir: string): string[] {
  const found: string[] = [];
  const queue = [dir];
  for (let seen = 0; queue.length && seen < NESTED_SEARCH_LIMIT; seen++) {
    const rel = queue.shift()!;
    if (existsSync(join(root, rel, '.git'))) {
      found.push(rel);
      continue;
    }
    let entries: Dirent[];
    try {
      entries = readdirSync(join(root, rel), { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) if (entry.isDirectory()) queue.push(`${rel}/${entry.name}`);
  }
  return found;
}

/** Notices for what the commit cannot hold. */
export function contentNotices(contents: WorktreeContents, kept: string): string[] {
  const notices: string[] = [];
  if (contents.submodules.length) {
    notices.push(`work inside submodule${contents.submodules.length > 1 ? 's' : ''} ${nameList(contents.submodules, 5)} (its own commits or files) is not committed by supervisor; ${kept}`);
  }
  if (contents.nestedRepos.length) {
    notices.push(`the CLI created nested git repositor${contents.nestedRepos.length > 1 ? 'ies' : 'y'} ${nameList(contents.nestedRepos, 5)}: not committed (a gitlink to a commit that exists only inside it would be useless); ${kept}`);
  }
  if (contents.ignored.length) {
    notices.push(`the run wrote ignored file${contents.ignored.length > 1 ? 's' : ''} ${nameList(contents.ignored, 5)}: git ignores them, so they are not in the commit`);
  }
  return notices;
}

export interface StagedGitlink {
  path: string;
  commit: string;
}

/** Gitlinks (mode 160000) the index adds or changes against `base`. */
async function stagedGitlinks(bound: BoundGit, base: string): Promise<StagedGitlink[]> {
  const raw = await bound.runOrThrow(['diff-index', '--cached', '--no-renames', '-z', base]);
  const fields = raw.split('\0');
  const links: StagedGitlink[] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    // ":<old mode> <new mode> <old id> <new id> <status>" then the path
    const [, newMode, , newId] = fields[i]!.slice(1).split(' ');
    if (newMode === '160000' && newId) links.push({ path: fields[i + 1]!, commit: newId });
  }
  return links;
}

/** The commit exists where it lasts: in the repository, or in the user's own checkout of that submodule. */
async function commitReachable(link: StagedGitlink, bound: BoundGit, repoRoot: string, env?: GitEnv): Promise<boolean> {
  if ((await bound.run(['cat-file', '-e', `${link.commit}^{commit}`])).ok) return true;
  const userSubmodule = join(repoRoot, link.path);
  if (!existsSync(join(userSubmodule, '.git'))) return false;
  return (await git(userSubmodule, ['cat-file', '-e', `${link.commit}^{commit}`], env)).ok;
}

/**
 * Takes staged gitlinks to commits that exist only inside the worktree back out of the index
 * (as they were at `base`); returns them.
 */
export async function unstageMissingGitlinks(bound: BoundGit, base: string, repoRoot: string, env?: GitEnv): Promise<StagedGitlink[]> {
  const dropped: StagedGitlink[] = [];
  for (const link of await stagedGitlinks(bound, base)) {
    if (await commitReachable(link, bound, repoRoot, env)) continue;
    await bound.runOrThrow(['reset', '-q', base, '--', link.path]);
    dropped.push(link);
  }
  return dropped;
}

/** The notice for dropped gitlinks, leaving out the nested repositories already named. */
export function droppedGitlinksNotice(dropped: StagedGitlink[], contents: WorktreeContents, kept: string): string | null {
  const nested = new Set(contents.nestedRepos);
  const named = dropped.filter((link) => !nested.has(link.path)).map((link) => `${link.path} (commit ${link.commit.slice(0, 12)})`);
  if (named.length === 0) return null;
  return `not committed: gitlink${named.length > 1 ? 's' : ''} to commits that exist only inside the worktree: ${named.join(', ')}; ${kept}`;
}

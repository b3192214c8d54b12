/**
 * glob: the seeds' "simple packing", done properly. Files matching the include globs, minus
 * the exclude globs, .gitignore rules (nested ones too) and a default ignore list, read
 * concurrently, capped per file and in total, in sorted order so every run packs the same.
 */
import { lstatSync } from 'node:fs';
import { glob, type FileSystemAdapter } from 'tinyglobby';
import { DEFAULT_IGNORED_FOLDERS, definePlugin, gitListedFiles, isIgnoredFileName, renderFiles, type PackRequest } from '../../core/plugin-api/index.ts';
import { createGitignoreFs } from './_gitignore.ts';
import { createListedFs } from './_listed-fs.ts';
import { skippedNotices } from './_skipped-notices.ts';

const byCodeUnit = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** How the files are found: git's list where git can tell, else a walk (both find the same files). */
export type Listing = 'git' | 'walk';

/**
 * Whether a pattern's leading folders (before its first glob character) pass a symbolic link:
 * the walk starts there and so follows it (the safe reader then judges each file), git's list
 * has nothing under a link. Such a request walks.
 */
function throughLink(request: PackRequest): boolean {
  for (const pattern of request.include) {
    let path = request.repoRoot;
    for (const segment of pattern.split('/').slice(0, -1)) {
      if (/[*?[\]{}()!+@\\]/.test(segment)) break;
      if (segment === '' || segment === '.') continue;
      path = `${path}/${segment}`;
      const stats = lstatSync(path, { throwIfNoEntry: false });
      if (!stats) break;
      if (stats.isSymbolicLink()) return true;
    }
  }
  return false;
}

/** Globs that match every path (dot files too): the list needs no matching. */
const EVERYTHING = new Set(['**/*', '**']);
const matchesAll = (request: PackRequest) => request.exclude.length === 0 && request.include.some((p) => EVERYTHING.has(p));

/** The folders and files the globs are matched against: git's list (one process), else a walk of the tree; or the list itself when the globs take everything. */
async function treeOf(request: PackRequest, env: Record<string, string | undefined>, listing: Listing): Promise<FileSystemAdapter | string[]> {
  const defaults = request.context.default_ignores !== false;
  const gitignore = request.context.gitignore !== false;
  const listed = listing === 'git' && gitignore && !throughLink(request) ? await gitListedFiles(request.repoRoot, { defaults, env }) : null;
  if (listed) return matchesAll(request) ? listed : createListedFs(request.repoRoot, listed);
  return createGitignoreFs(request.repoRoot, {
    gitignore,
    skipFolder: (name) => name === '.git' || (defaults && DEFAULT_IGNORED_FOLDERS.has(name)),
    skipFile: (name) => defaults && isIgnoredFileName(name),
  });
}

/**
 * Git's list when a pattern can reach any depth (`**`): the walk would read every folder. Else
 * the walk, which enters only the folders the patterns name (README*, a target's path): two
 * processes and a list of the whole repository would cost more than those few readdirs.
 */
export function listingFor(request: PackRequest): Listing {
  return request.include.some((pattern) => pattern.includes('**')) ? 'git' : 'walk';
}

/** The repository-relative files a request selects, sorted, less those packed already. */
export async function selectFiles(request: PackRequest, env: Record<string, string | undefined> = process.env, listing: Listing = listingFor(request)): Promise<string[]> {
  return (await matchFiles(request, env, listing)).paths;
}

/** The files selected, and how many the globs matched before those packed already were taken out. */
async function matchFiles(request: PackRequest, env: Record<string, string | undefined>, listing: Listing = listingFor(request)): Promise<{ paths: string[]; matched: number }> {
  if (request.include.length === 0) return { paths: [], matched: 0 };
  const tree = await treeOf(request, env, listing);
  const found = Array.isArray(tree)
    ? tree
    : await glob([...request.include], { cwd: request.repoRoot, ignore: [...request.exclude], dot: true, followSymbolicLinks: false, fs: tree });
  const skip = new Set(request.skipFiles);
  return { paths: (skip.size ? found.filter((path) => !skip.has(path)) : found).sort(byCodeUnit), matched: found.length };
}

export default definePlugin({
  kind: 'packer',
  name: 'glob',
  contextKeys: ['default_ignores', 'gitignore'],
  description: 'Files by include/exclude globs, honouring .gitignore; capped at 1 MiB per file and 10 MiB in all',
  async pack(request, ctx) {
    const { paths, matched } = await matchFiles(request, ctx.env);
    // Files packed already (the targets) are no news: only globs that match nothing are.
    if (paths.length === 0) return { parts: [], notices: request.include.length && matched === 0 ? [`glob: no files match ${request.include.join(', ')}`] : [] };
    const report = await ctx.readFiles(paths);
    const content = report.files.length ? renderFiles(report.files, request.style, 'Files', 'files', { lineNumbers: request.lineNumbers === true }) : '';
    return {
      parts: content ? [{ key: 'files', content, files: report.files.map((f) => f.path) }] : [],
      notices: skippedNotices('glob', report),
      secretsScanned: true,
    };
  },
});

/**
 * glob: the seeds' "simple packing", done properly. Files matching the include globs, minus
 * the exclude globs, .gitignore rules (nested ones too) and a default ignore list, read
 * concurrently, capped per file and in total, in sorted order so every run packs the same.
 */
import { glob } from 'tinyglobby';
import { DEFAULT_IGNORED_FOLDERS, definePlugin, isIgnoredFileName, renderFiles, type PackRequest } from '../../core/plugin-api/index.ts';
import { createGitignoreFs } from './_gitignore.ts';
import { skippedNotices } from './_skipped-notices.ts';

const byCodeUnit = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The repository-relative files a request selects, sorted, less those packed already. */
async function selectFiles(request: PackRequest): Promise<string[]> {
  if (request.include.length === 0) return [];
  const defaults = request.context.default_ignores !== false;
  const found = await glob([...request.include], {
    cwd: request.repoRoot,
    ignore: [...request.exclude],
    dot: true,
    followSymbolicLinks: false,
    fs: createGitignoreFs(request.repoRoot, {
      gitignore: request.context.gitignore !== false,
      skipFolder: (name) => name === '.git' || (defaults && DEFAULT_IGNORED_FOLDERS.has(name)),
      skipFile: (name) => defaults && isIgnoredFileName(name),
    }),
  });
  const skip = new Set(request.skipFiles);
  return (skip.size ? found.filter((path) => !skip.has(path)) : found).sort(byCodeUnit);
}

export default definePlugin({
  kind: 'packer',
  name: 'glob',
  contextKeys: ['default_ignores', 'gitignore'],
  description: 'Files by include/exclude globs, honouring .gitignore; capped at 1 MiB per file and 10 MiB in all',
  async pack(request, ctx) {
    const paths = await selectFiles(request);
    if (paths.length === 0) return { parts: [], notices: request.include.length ? [`glob: no files left to pack for ${request.include.join(', ')} (none match, or all are packed already)`] : [] };
    const report = await ctx.readFiles(paths);
    const content = report.files.length ? renderFiles(report.files, request.style, 'Files', 'files') : '';
    return {
      parts: content ? [{ key: 'files', content, files: report.files.map((f) => f.path) }] : [],
      notices: skippedNotices('glob', report),
      secretsScanned: true,
    };
  },
});

/**
 * glob: the seeds' "simple packing", done properly. Files matching the include globs, minus
 * the exclude globs, .gitignore rules (nested ones too) and a default ignore list, read
 * concurrently, capped per file and in total, in sorted order so every run packs the same.
 */
import { glob } from 'tinyglobby';
import { definePlugin, type PackRequest } from '../../core/plugin/index.ts';
import { createGitignoreFs } from './_gitignore.ts';
import { readFiles, skippedNotices } from './_read-files.ts';
import { renderFiles } from './_render.ts';

/** Never packed: dependencies, VCS and build output, lock files, secrets, supervisor's own state. */
export const DEFAULT_IGNORES: readonly string[] = [
  '**/.git/**', '**/.hg/**', '**/.svn/**',
  '**/node_modules/**', '**/bower_components/**', '**/.venv/**', '**/venv/**', '**/__pycache__/**',
  '**/.tox/**', '**/.mypy_cache/**', '**/.pytest_cache/**', '**/.ruff_cache/**',
  '**/dist/**', '**/build/**', '**/coverage/**', '**/.next/**', '**/.nuxt/**', '**/.turbo/**', '**/.cache/**',
  '**/.supervisor/**',
  '**/package-lock.json', '**/npm-shrinkwrap.json', '**/yarn.lock', '**/pnpm-lock.yaml', '**/bun.lock', '**/bun.lockb',
  '**/Cargo.lock', '**/poetry.lock', '**/Pipfile.lock', '**/uv.lock', '**/composer.lock', '**/Gemfile.lock', '**/go.sum',
  '**/.DS_Store', '**/*.log', '**/.env', '**/.env.*',
];

const byCodeUnit = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The repository-relative files a request selects, sorted. */
export async function selectFiles(request: PackRequest): Promise<string[]> {
  if (request.include.length === 0) return [];
  const found = await glob([...request.include], {
    cwd: request.repoRoot,
    ignore: [...(request.context.default_ignores === false ? [] : DEFAULT_IGNORES), ...request.exclude],
    dot: true,
    followSymbolicLinks: false,
    fs: request.context.gitignore === false ? undefined : createGitignoreFs(request.repoRoot),
  });
  return found.sort(byCodeUnit);
}

export default definePlugin({
  kind: 'packer',
  name: 'glob',
  description: 'Files by include/exclude globs, honouring .gitignore; capped at 1 MiB per file and 10 MiB in all',
  async pack(request, ctx) {
    const paths = await selectFiles(request);
    if (paths.length === 0) return { parts: [], notices: request.include.length ? [`glob: no files match ${request.include.join(', ')}`] : [] };
    const report = await readFiles(paths, ctx);
    const content = report.files.length ? renderFiles(report.files, request.style, 'Files', 'files') : '';
    return {
      parts: content ? [{ key: 'files', content, files: report.files.map((f) => f.path) }] : [],
      notices: skippedNotices('glob', report),
    };
  },
});

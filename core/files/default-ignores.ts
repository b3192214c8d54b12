/**
 * The default ignore list of everything that selects files (the glob packer, git-diff's
 * changed files and diffs, `always_include` globs): folders never entered and files never
 * packed, by name. `default_ignores: false` in the context turns it off. Packers get it
 * through the plugin API.
 */

/** Folders never entered: VCS, dependencies, virtualenvs, caches, build output, supervisor's state. */
export const DEFAULT_IGNORED_FOLDERS: ReadonlySet<string> = new Set([
  '.git', '.hg', '.svn', 'node_modules', 'bower_components', 'jspm_packages', '.venv', 'venv', '__pycache__',
  '.tox', '.mypy_cache', '.pytest_cache', '.ruff_cache', 'dist', 'build', 'coverage', '.next', '.nuxt', '.turbo',
  '.cache', '.supervisor',
]);

/** Files never packed: lock files, logs, OS litter, secrets. */
const DEFAULT_IGNORED_FILES: ReadonlySet<string> = new Set([
  'package-lock.json', 'npm-shrinkwrap.json', 'yarn.lock', 'pnpm-lock.yaml', 'bun.lock', 'bun.lockb', 'Cargo.lock',
  'poetry.lock', 'Pipfile.lock', 'uv.lock', 'composer.lock', 'Gemfile.lock', 'go.sum', '.DS_Store', 'Thumbs.db', '.env',
]);
const IGNORED_FILE_PATTERN = /(?:\.log|\.py[cod])$|^\.env\./;

/** Whether a file name (no folder) is on the default ignore list. */
export function isIgnoredFileName(name: string): boolean {
  return DEFAULT_IGNORED_FILES.has(name) || IGNORED_FILE_PATTERN.test(name);
}

/** Whether a repository-relative path (posix separators) is on the default ignore list. */
export function isDefaultIgnored(path: string): boolean {
  const segments = path.split('/');
  return isIgnoredFileName(segments.at(-1)!) || segments.slice(0, -1).some((s) => DEFAULT_IGNORED_FOLDERS.has(s));
}

/**
 * Packing never reads outside the repository. Every path or pattern from a role, a flag or a
 * plugin passes through here: absolute paths and `..` out of the repo are refused before any
 * file system call, and existing paths are resolved with realpath so that a symlink pointing
 * outside is refused too. Patterns are only checked as text, so the files a packer reports it
 * packed are checked again afterwards (`outside`): a tool that follows a symlink out cannot
 * get what it read into the prompt. Odd names (NUL bytes, empty strings) are refused, never crash.
 */
import { readdir, realpath } from 'node:fs/promises';
import { dirname, join, posix, sep, win32 } from 'node:path';
import { contextErrors } from './errors.ts';
import { toPosix } from '../files/posix-path.ts';

/** Kept for importers of the old place; core/files/posix-path.ts is its home. */
export { toPosix };

function rejectInvalid(value: string, what: string): void {
  if (typeof value !== 'string' || value.trim() === '') throw contextErrors.pathInvalid(String(value), `empty ${what}`);
  if (value.includes('\0')) throw contextErrors.pathInvalid(value, `${what} contains a NUL byte`);
}

/**
 * Absolute on any platform, or meant so: "~" and "~/..." (home, as a shell would read it), and
 * on Windows a drive ("C:x" is relative to that drive's current folder). On POSIX "~notes.md"
 * and "a:b.ts" are ordinary names.
 */
function isAbsoluteAnywhere(value: string): boolean {
  const windows = process.platform === 'win32';
  const home = value === '~' || value.startsWith('~/') || (windows && value.startsWith('~\\'));
  return posix.isAbsolute(value) || win32.isAbsolute(value) || home || (windows && /^[A-Za-z]:/.test(value));
}

/** One segment of a normal path: not empty, not "." or "..", no separator or NUL. */
const SEGMENT = String.raw`(?!\.\.?(?:/|$))[^/\\\0]+`;
/**
 * A path that normalising leaves as it is and that passes every check: segments as above, no
 * leading "~" or drive ("C:"), some character that is not whitespace. What git lists is such a
 * path; testing for it costs a tenth of normalising (thousands of paths a pack).
 */
const NORMAL = new RegExp(`^(?![A-Za-z]:|~)(?=[^]*\\S)${SEGMENT}(?:/${SEGMENT})*$`);

/**
 * Checks a repository-relative path lexically and returns it normalised (posix separators,
 * no "./"). Throws PATH_INVALID / PATH_OUTSIDE_REPO.
 */
export function normaliseRelativePath(path: string): string {
  return typeof path === 'string' && NORMAL.test(path) ? path : normaliseChecked(path);
}

/** normaliseRelativePath without the shortcut for a normal path (the test holds the two equal). */
export function normaliseChecked(path: string): string {
  rejectInvalid(path, 'path');
  if (isAbsoluteAnywhere(path)) throw contextErrors.pathOutsideRepo(path, 'absolute paths are not allowed');
  const normal = posix.normalize(toPosix(path)).replace(/\/+$/, '');
  if (normal === '..' || normal.startsWith('../')) throw contextErrors.pathOutsideRepo(path, 'it leads out of the repository');
  return normal === '' ? '.' : normal;
}

/**
 * Checks a glob pattern: no absolute patterns, no `..` segment anywhere (also inside braces
 * or extglobs, where normalisation cannot see it). A leading "!" (negation) is allowed.
 */
export function checkPattern(pattern: string): string {
  rejectInvalid(pattern, 'pattern');
  const body = pattern.startsWith('!') ? pattern.slice(1) : pattern;
  if (isAbsoluteAnywhere(body)) throw contextErrors.pathOutsideRepo(pattern, 'absolute patterns are not allowed');
  if (body.split(/[/\\{},()|@!+*?]+/).includes('..')) throw contextErrors.pathOutsideRepo(pattern, 'patterns may not contain ".."');
  return pattern;
}

/** Whether an absolute, symlink-free path is the root or lies under it. */
export function isInside(real: string, realRoot: string): boolean {
  return real === realRoot || real.startsWith(realRoot.endsWith(sep) ? realRoot : realRoot + sep);
}

export interface PathGuard {
  /** The repository root as given. */
  root: string;
  /** Absolute, symlink-free path of a repository-relative path; throws when it leaves the repo. */
  resolve(relative: string): Promise<string>;
  /** The normalised relative form of a path (lexical checks only). */
  normalise(relative: string): string;
  /**
   * The paths among `files` that lead outside the repository, in their order: absolute or `..`
   * paths, paths through a folder that resolves outside, and symlinks that do.
   */
  outside(files: readonly string[]): Promise<string[]>;
}

/** Folders checked at once by outside(). */
const CHECK_BATCH = 256;

/** A guard for one repository root; caches the root's own realpath. */
export function createPathGuard(root: string): PathGuard {
  let realRoot: Promise<string> | undefined;
  const rootReal = () => (realRoot ??= realpath(root).catch(() => root));

  async function resolve(relative: string): Promise<string> {
    const rel = normaliseRelativePath(relative);
    const top = await rootReal();
    const lexical = rel === '.' ? top : join(top, rel);
    let probe = lexical;
    // A path that does not exist yet: check its nearest existing ancestor instead, so a
    // missing file under a symlinked folder that points outside is still refused.
    for (;;) {
      let real: string;
      try {
        real = await realpath(probe);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        // Loops, permissions: nothing can be read through this path, so reading fails later.
        if (code !== 'ENOENT' && code !== 'ENOTDIR') return lexical;
        const parent = dirname(probe);
        if (parent === probe || !isInside(parent, top)) return lexical;
        probe = parent;
        continue;
      }
      if (!isInside(real, top)) throw contextErrors.pathOutsideRepo(relative, `it resolves outside the repository (to ${real})`);
      return probe === lexical ? real : lexical;
    }
  }

  async function outside(files: readonly string[]): Promise<string[]> {
    // By folder: each is resolved and listed once, and only the files its listing shows to be
    // symlinks are resolved themselves — two syscalls per folder, not one or more per file.
    const byFolder = new Map<string, { file: string; rel: string }[]>();
    const refused = new Set<string>();
    for (const file of files) {
      let rel: string;
      try {
        rel = normaliseRelativePath(file);
      } catch {
        refused.add(file);
        continue;
      }
      const dir = posix.dirname(rel);
      const list = byFolder.get(dir);
      if (list) list.push({ file, rel });
      else byFolder.set(dir, [{ file, rel }]);
    }
    const checkFolder = async ([dir, inFolder]: [string, { file: string; rel: string }[]]) => {
      // Any failure to resolve counts as outside: refusing is the safe answer.
      const real = await resolve(dir).catch(() => null);
      if (real === null) return inFolder.forEach(({ file }) => refused.add(file));
      const entries = await readdir(real, { withFileTypes: true }).catch(() => []);
      const links = new Set(entries.filter((e) => e.isSymbolicLink()).map((e) => e.name));
      for (const { file, rel } of inFolder) {
        if (links.has(posix.basename(rel)) && !(await resolve(rel).then(() => true, () => false))) refused.add(file);
      }
    };
    const folders = [...byFolder];
    for (let start = 0; start < folders.length; start += CHECK_BATCH) await Promise.all(folders.slice(start, start + CHECK_BATCH).map(checkFolder));
    return files.filter((file) => refused.has(file));
  }

  return { root, resolve, normalise: normaliseRelativePath, outside };
}

/** What `--target` means on the command line: a path relative to the current folder. */
import { isAbsolute, relative, resolve, sep } from 'node:path';

/**
 * A target typed relative to the current folder (or absolute), as packing wants it: relative
 * to the repository root, with forward slashes. One outside the repository is returned as
 * typed, and packing refuses it with a clear error.
 */
export function repoRelative(target: string, cwd: string, repoRoot: string): string {
  const rel = relative(repoRoot, resolve(cwd, target));
  if (rel.startsWith('..') || isAbsolute(rel)) return target;
  return rel.split(sep).join('/');
}

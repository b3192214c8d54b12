/**
 * What `--target` means on the command line, for every command that takes it (run, prompt,
 * pack): an existing file, typed relative to the current folder or as an absolute path inside
 * the repository. Packing wants it relative to the repository root, with forward slashes.
 * A target outside the repository, one that does not exist, a folder or a glob is a usage
 * error naming it, so a typo never becomes a prompt that silently lacks the file.
 */
import { readdir, stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { contextErrors } from '../context/errors.ts';
import { suggest } from '../text/suggest.ts';
import { targetErrors } from './target-errors.ts';

const GLOB_CHARS = /[*?[\]{}]/;

/** The repository-relative form, or null when the path lies outside the repository. */
function insideRepo(absolute: string, repoRoot: string): string | null {
  const rel = relative(repoRoot, absolute);
  if (rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return null;
  return rel.split(sep).join('/');
}

/** Names in the target's folder close to the one typed, shown as the user would type them. */
async function closeNames(typed: string, absolute: string): Promise<string[]> {
  let names: string[];
  try {
    names = (await readdir(dirname(absolute), { withFileTypes: true })).filter((e) => e.isFile()).map((e) => e.name);
  } catch {
    return [];
  }
  const hint = suggest(basename(absolute), names);
  const close = [...hint.matchAll(/"([^"]+)"/g)].map((m) => m[1]!);
  const folder = typed.includes('/') || typed.includes(sep) ? typed.slice(0, Math.max(typed.lastIndexOf('/'), typed.lastIndexOf(sep)) + 1) : '';
  return close.map((name) => folder + name);
}

/** One target, checked: its repository-relative path. */
export async function resolveTarget(typed: string, cwd: string, repoRoot: string): Promise<string> {
  if (typed.trim() === '' || typed.includes('\0')) throw contextErrors.pathInvalid(typed, 'a target must name a file');
  const absolute = resolve(cwd, typed);
  const rel = insideRepo(absolute, repoRoot);
  if (rel === null) throw contextErrors.pathOutsideRepo(typed, `it is outside the repository ${repoRoot}`);
  let info;
  try {
    info = await stat(absolute);
  } catch {
    if (GLOB_CHARS.test(typed)) throw targetErrors.glob(typed);
    throw targetErrors.notFound(typed, await closeNames(typed, absolute));
  }
  if (info.isDirectory()) throw targetErrors.folder(typed);
  if (!info.isFile()) throw targetErrors.notFile(typed);
  return rel;
}

/** Every target, checked, in the order given, each once. */
export async function resolveTargets(typed: readonly unknown[], cwd: string, repoRoot: string): Promise<string[]> {
  const resolved = await Promise.all(typed.map((t) => resolveTarget(String(t), cwd, repoRoot)));
  return [...new Set(resolved)];
}


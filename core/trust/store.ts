/**
 * The trust list: folders (real paths) whose own code supervisor may run, kept in
 * ~/.supervisor/trusted.json as {"trusted": [...]}. A folder covers the folders inside it, as in
 * editors and Gemini CLI, so trusting a workspace folder trusts the repositories in it.
 */
import { readFile, realpath, stat } from 'node:fs/promises';
import { dirname, join, sep } from 'node:path';
import * as v from 'valibot';
import { writeJsonAtomic } from '../fs/atomic-file.ts';
import { trustErrors } from './errors.ts';

const TrustFile = v.object({ trusted: v.array(v.pipe(v.string(), v.check((p) => p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p), 'an absolute path'))) });

export function trustFilePath(homeDir: string): string {
  return join(homeDir, '.supervisor', 'trusted.json');
}

/** The trusted folders; a missing file is an empty list, a malformed one an error naming it. */
export async function readTrustList(homeDir: string): Promise<string[]> {
  const file = trustFilePath(homeDir);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw trustErrors.fileInvalid(file, (error as Error).message);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw trustErrors.fileInvalid(file, (error as Error).message);
  }
  const checked = v.safeParse(TrustFile, parsed);
  if (!checked.success) throw trustErrors.fileInvalid(file, checked.issues.map((i) => `${v.getDotPath(i) ?? '(root)'}: ${i.message}`).join('; '));
  return checked.output.trusted;
}

/** Replaces the file whole (core/fs/atomic-file), readable by its owner only. */
async function writeTrustList(homeDir: string, list: string[]): Promise<void> {
  writeJsonAtomic(trustFilePath(homeDir), { trusted: [...new Set(list)].sort() }, { mode: 0o600 });
}

/** The real path of a folder (symlinks resolved), so one folder has one name in the list. */
export async function realFolder(path: string): Promise<string> {
  const real = await realpath(path).catch(() => undefined);
  if (!real || !(await stat(real)).isDirectory()) throw trustErrors.notFolder(path);
  return real;
}

/** Whether `real` is a trusted folder or inside one. */
export function coveredBy(real: string, list: readonly string[]): string | undefined {
  return list.find((entry) => real === entry || real.startsWith(entry.endsWith(sep) ? entry : `${entry}${sep}`));
}

/** Adds a folder; returns false when it was listed already. The root and the home folder itself are too broad. */
export async function addTrusted(homeDir: string, path: string): Promise<{ path: string; added: boolean }> {
  const real = await realFolder(path);
  const home = await realpath(homeDir).catch(() => homeDir);
  if (real === home || dirname(real) === real) throw trustErrors.tooBroad(real);
  const list = await readTrustList(homeDir);
  if (list.includes(real)) return { path: real, added: false };
  await writeTrustList(homeDir, [...list, real]);
  return { path: real, added: true };
}

/**
 * Removes a folder (given as listed, or any path to it, even one deleted since); a folder that
 * is not listed is TRUST_NOT_LISTED, naming the entry that covers it when one does.
 */
export async function removeTrusted(homeDir: string, path: string): Promise<{ path: string; removed: boolean }> {
  const list = await readTrustList(homeDir);
  const real = (await realpath(path).catch(() => undefined)) ?? path;
  const kept = list.filter((entry) => entry !== real && entry !== path);
  if (kept.length === list.length) throw trustErrors.notListed(real, coveredBy(real, list), trustFilePath(homeDir));
  await writeTrustList(homeDir, kept);
  return { path: real, removed: true };
}

/**
 * The secret scan's clean verdicts, kept: a text that the scan found nothing in is remembered by
 * a SHA-256 of its path and content, so the next pack (of this repository, another worktree of
 * it, or another clone) does not scan it again — the scan is most of what packing costs on a
 * large repository. Only "nothing found" is kept; a text with a secret is scanned every time.
 * The file lives in the user's cache folder (state-dir.ts `userCacheDir`, checked as SECURITY I4
 * asks), never in a checkout or worktree, where a repository or a CLI could write a verdict for
 * a text it wants packed; its name carries the rules' revision, so changed rules scan again.
 * A cache that cannot be read or written means scanning again, never an error;
 * SUPERVISOR_SCAN_CACHE=0 turns it off.
 */
import { createHash, hash } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { VERSION } from '../version.ts';
import { ensureUserCacheDir } from '../state-dir.ts';
import { SECRET_RULES_REVISION, type SecretScanner } from '../secrets/secret-scan.ts';

/**
 * Verdicts kept on disk: this process's first, then older ones. Every pack reads them all, so the
 * file stays small (2.2 MB, a few MiB in memory): ten repositories of vite's size.
 */
const MAX_VERDICTS = 50_000;
const KEY_LENGTH = 43; // base64url of 32 bytes

export interface CachedScanner extends SecretScanner {
  /** Writes the verdicts this process added (a no-op when none were). */
  save(): void;
}

/**
 * SHA-256 of the path, a NUL and the text's UTF-8 bytes: from the file's own bytes when the reader
 * has them (encoding a decoded text again took ~5× the digest on vite), else from the text in one
 * call (no hash object: on thousands of small texts the object costs more than the digest). A
 * file that is valid UTF-8 gets the same key either way.
 */
const keyOf = (path: string, content: string, bytes?: Uint8Array) =>
  bytes ? createHash('sha256').update(`${path}\0`).update(bytes).digest('base64url') : hash('sha256', `${path}\0${content}`, 'base64url');

/** The verdicts file's name for this build's rules. */
export function verdictFileName(): string {
  return `secret-verdicts-${createHash('sha256').update(`${VERSION}\0${SECRET_RULES_REVISION}`).digest('hex').slice(0, 16)}.txt`;
}

/** The file of this build's rules, in the user's cache folder; null when that folder is refused or off. */
function verdictFile(env: Record<string, string | undefined>): string | null {
  if (env.SUPERVISOR_SCAN_CACHE === '0') return null;
  try {
    return join(ensureUserCacheDir(env), verdictFileName());
  } catch {
    return null;
  }
}

function readVerdicts(file: string): Set<string> {
  try {
    return new Set(readFileSync(file, 'utf8').split('\n').filter((line) => line.length === KEY_LENGTH));
  } catch {
    return new Set();
  }
}

/** `scanner` with its clean verdicts kept in the user's cache folder. */
export function cachedScanner(scanner: SecretScanner, env: Record<string, string | undefined> = process.env): CachedScanner {
  let file: string | null | undefined;
  let stored: Set<string> | undefined;
  const added = new Set<string>();
  const clean = () => {
    if (stored) return stored;
    file = verdictFile(env);
    return (stored = file ? readVerdicts(file) : new Set());
  };
  return {
    async scan(path, content, bytes) {
      const key = keyOf(path, content, bytes);
      if (clean().has(key) || added.has(key)) return [];
      const rules = await scanner.scan(path, content, bytes);
      if (rules.length === 0) added.add(key);
      return rules;
    },
    save() {
      if (!file || added.size === 0) return;
      const lines = [...added].slice(0, MAX_VERDICTS);
      for (const key of stored ?? []) if (lines.length < MAX_VERDICTS && !added.has(key)) lines.push(key);
      for (const key of added) stored?.add(key);
      added.clear();
      try {
        const temp = `${file}.${process.pid}.tmp`;
        writeFileSync(temp, `${lines.join('\n')}\n`, { mode: 0o600 });
        renameSync(temp, file); // whole or not at all, also with parallel packs
      } catch {
        // A cache that cannot be written is a slower next pack, nothing more.
      }
    },
  };
}

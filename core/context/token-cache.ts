/**
 * Exact token counts of text pieces, kept by content hash: in memory for the process, and on
 * disk in `<repo>/.supervisor/cache/<tokenizer>-counts.txt` so the next `pack`, `prompt` or
 * `run` in the repository does not count unchanged files again. On disk because each command
 * is its own process: an in-memory cache alone would help only the second count within one
 * command. The file holds hashes and numbers only (no text, no paths), is ignored by git
 * (a `.gitignore` of `*` in its folder), and is a cache: unreadable, corrupt or unwritable
 * means counting again, never an error. SUPERVISOR_TOKEN_CACHE=0 turns the disk cache off.
 */
import { statePaths } from '../state-dir.ts';
import { hash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Entries kept on disk: those used by the last command first, then older ones. */
const MAX_ENTRIES = 200_000;

export interface CountCache {
  /** The count for a piece, counting it with `count` when it is not known. */
  get(piece: string, count: (piece: string) => number): number;
  /** Whether the count of a piece is known (no counting needed). */
  has(piece: string): boolean;
  /** Keeps a count taken elsewhere (another thread) as if `get` had counted it. */
  put(piece: string, count: number): void;
  /** Writes new entries to disk (a no-op without a file or without new entries). */
  save(): void;
}

const hashOf = (piece: string) => hash('sha1', piece, 'base64url');

function readEntries(file: string): Map<string, number> {
  const entries = new Map<string, number>();
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return entries;
  }
  for (const line of text.split('\n')) {
    const space = line.indexOf(' ');
    const count = Number(line.slice(space + 1));
    if (space === 27 && Number.isInteger(count) && count >= 0) entries.set(line.slice(0, space), count);
  }
  return entries;
}

/**
 * A cache for one tokenizer; `repoRoot` null keeps it in memory only. In memory a count is kept
 * by its piece (a string key hashes far faster than a digest is taken); a piece's digest, the
 * file's key, is taken once, and only when there is a file.
 */
export function createCountCache(tokenizer: string, repoRoot: string | null, env: Record<string, string | undefined> = process.env): CountCache {
  const folder = repoRoot && env.SUPERVISOR_TOKEN_CACHE !== '0' ? stateCache(repoRoot) : null;
  const file = folder ? join(folder, `${tokenizer}-counts.txt`) : null;
  let stored: Map<string, number> | null = null;
  /** Counts of this process, by piece; each with its digest once taken (the file's key). */
  const used = new Map<string, number>();
  const keys = new Map<string, string>();
  let added = 0;
  const keyOf = (piece: string) => {
    let key = keys.get(piece);
    if (key === undefined) keys.set(piece, (key = hashOf(piece)));
    return key;
  };
  /** The count the file holds for a piece (kept in memory from then on), if any. */
  const fromFile = (piece: string): number | undefined => {
    if (!file) return undefined;
    stored ??= readEntries(file);
    const n = stored.get(keyOf(piece));
    if (n !== undefined) used.set(piece, n);
    return n;
  };
  const put = (piece: string, n: number) => {
    used.set(piece, n);
    added++;
  };
  return {
    has: (piece) => used.has(piece) || fromFile(piece) !== undefined,
    get(piece, count) {
      let n = used.get(piece) ?? fromFile(piece);
      if (n === undefined) put(piece, (n = count(piece)));
      return n;
    },
    put(piece, n) {
      if (!used.has(piece)) put(piece, n);
    },
    save() {
      if (!file || !folder || added === 0) return;
      added = 0;
      const lines: string[] = [];
      const written = new Set<string>();
      for (const [piece, n] of used) {
        const key = keyOf(piece);
        if (written.has(key)) continue;
        written.add(key);
        lines.push(`${key} ${n}`);
      }
      for (const [key, n] of stored ?? []) if (lines.length < MAX_ENTRIES && !written.has(key)) lines.push(`${key} ${n}`);
      try {
        mkdirSync(folder, { recursive: true });
        writeFileSync(join(folder, '.gitignore'), '*\n');
        const temp = `${file}.${process.pid}.tmp`;
        writeFileSync(temp, `${lines.slice(0, MAX_ENTRIES).join('\n')}\n`);
        renameSync(temp, file); // whole or not at all, also with parallel runs
      } catch {
        // A cache that cannot be written is a slower next run, nothing more.
      }
    },
  };
}

/** The state folder's cache, or none (memory only) when the state folder is refused (SECURITY I4, state-dir.ts). */
function stateCache(repoRoot: string): string | null {
  try {
    return statePaths(repoRoot).cache;
  } catch {
    return null;
  }
}

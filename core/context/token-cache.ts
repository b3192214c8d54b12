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
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Entries kept on disk: those used by the last command first, then older ones. */
const MAX_ENTRIES = 200_000;

export interface CountCache {
  /** The count for a piece, counting it with `count` when it is not known. */
  get(piece: string, count: (piece: string) => number): number;
  /** Whether the count of a piece is known (no counting needed). */
  has(piece: string): boolean;
  /** Writes new entries to disk (a no-op without a file or without new entries). */
  save(): void;
}

const hashOf = (piece: string) => createHash('sha1').update(piece).digest('base64url');

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

/** A cache for one tokenizer; `repoRoot` null keeps it in memory only. */
export function createCountCache(tokenizer: string, repoRoot: string | null, env: Record<string, string | undefined> = process.env): CountCache {
  const folder = repoRoot && env.SUPERVISOR_TOKEN_CACHE !== '0' ? stateCache(repoRoot) : null;
  const file = folder ? join(folder, `${tokenizer}-counts.txt`) : null;
  let stored: Map<string, number> | null = null;
  const used = new Map<string, number>();
  let added = 0;
  return {
    has(piece) {
      const key = hashOf(piece);
      if (used.has(key)) return true;
      stored ??= file ? readEntries(file) : new Map();
      return stored.has(key);
    },
    get(piece, count) {
      const key = hashOf(piece);
      let n = used.get(key);
      if (n !== undefined) return n;
      stored ??= file ? readEntries(file) : new Map();
      n = stored.get(key);
      if (n === undefined) {
        n = count(piece);
        added++;
      }
      used.set(key, n);
      return n;
    },
    save() {
      if (!file || !folder || added === 0) return;
      added = 0;
      const lines: string[] = [];
      for (const [key, n] of used) lines.push(`${key} ${n}`);
      for (const [key, n] of stored ?? []) if (lines.length < MAX_ENTRIES && !used.has(key)) lines.push(`${key} ${n}`);
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

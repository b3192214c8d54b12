/**
 * The core's one file reader (target files, imports, always_include): a regular file within
 * the per-file cap, read whole, unless it looks binary. It never opens what is not a regular
 * file (a FIFO would block). Paths come resolved by the path guard.
 */
import { readFile, stat } from 'node:fs/promises';
import { MAX_FILE_SIZE } from './constants.ts';
import { looksBinary } from './file-section.ts';

export type TextRead =
  | { kind: 'text'; content: string; bytes: number }
  /** Not a regular file, over the per-file cap, over the room left, binary, or failed to read. */
  | { kind: 'notFile' | 'tooLarge' | 'overRoom' | 'binary' | 'unreadable' };

/** Reads a text file at an absolute, guard-resolved path; `room` is what a total cap leaves. */
export async function readText(absolute: string, room = Number.POSITIVE_INFINITY): Promise<TextRead> {
  try {
    const info = await stat(absolute);
    if (!info.isFile()) return { kind: 'notFile' };
    if (info.size > MAX_FILE_SIZE) return { kind: 'tooLarge' };
    if (info.size > room) return { kind: 'overRoom' };
    const bytes = await readFile(absolute);
    return looksBinary(bytes) ? { kind: 'binary' } : { kind: 'text', content: bytes.toString('utf8'), bytes: bytes.length };
  } catch {
    return { kind: 'unreadable' };
  }
}

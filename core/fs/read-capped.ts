/**
 * A whole file read with synchronous calls into one buffer kept for the next read: for the many
 * small reads of /proc (whose files say size 0, so readFileSync costs ten times more) and of
 * the launcher's output files.
 */
import { closeSync, openSync, readSync } from 'node:fs';

let shared = Buffer.allocUnsafe(64 * 1024);
const MAX_KEPT = 1024 * 1024;

/** Up to `cap` bytes of the file as text, and whether there was more; null when it cannot be opened or read. */
export function readCapped(path: string, encoding: BufferEncoding, cap = Number.POSITIVE_INFINITY): { text: string; truncated: boolean } | null {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return null;
  }
  try {
    let length = 0;
    for (;;) {
      if (length === shared.length) {
        const larger = Buffer.allocUnsafe(shared.length * 2);
        shared.copy(larger, 0, 0, length);
        shared = larger;
      }
      const read = readSync(fd, shared, length, shared.length - length, null);
      if (read === 0 || length + read > cap) {
        const kept = Math.min(length + read, cap);
        return { text: shared.toString(encoding, 0, kept), truncated: read !== 0 };
      }
      length += read;
    }
  } catch {
    return null;
  } finally {
    closeSync(fd);
    if (shared.length > MAX_KEPT) shared = Buffer.allocUnsafe(64 * 1024); // a large output is not kept in memory for good
  }
}

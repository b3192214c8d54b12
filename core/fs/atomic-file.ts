/**
 * State files written whole or not at all: a reader (or a resume after kill -9) sees either the
 * old content or the new one, never half of it. Write beside the file, fsync, rename over it,
 * fsync the folder so the rename itself survives a crash. One implementation for every state
 * file the engines keep (run results, workflow plan and result, trust list).
 */
import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

let counter = 0;

function syncFolder(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // Some filesystems refuse fsync on a folder; the rename is still atomic there.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

export interface AtomicWriteOptions {
  /** File mode of a new file (default 0o644). */
  mode?: number;
}

/** Replaces `file` with `content` atomically (write, fsync, rename, fsync the folder). */
export function writeFileAtomic(file: string, content: string | Uint8Array, options: AtomicWriteOptions = {}): void {
  const dir = dirname(file);
  mkdirSync(dir, { recursive: true });
  const temporary = join(dir, `.${basename(file)}.${process.pid}.${++counter}.tmp`);
  const fd = openSync(temporary, 'wx', options.mode ?? 0o644);
  try {
    const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
    for (let offset = 0; offset < bytes.length; ) offset += writeSync(fd, bytes, offset, bytes.length - offset);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    rmSync(temporary, { force: true });
    throw error;
  }
  closeSync(fd);
  try {
    renameSync(temporary, file);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
  syncFolder(dir);
}

/** `value` as pretty JSON with a final newline, written atomically. */
export function writeJsonAtomic(file: string, value: unknown, options: AtomicWriteOptions = {}): void {
  writeFileAtomic(file, `${JSON.stringify(value, null, 2)}\n`, options);
}

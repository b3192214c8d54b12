/**
 * Reads the files a packer selected, in their (sorted) order, a batch at a time with the
 * reads of a batch running concurrently: files over the per-file cap are never read, binary
 * files (a NUL in the first 8000 bytes) are dropped, and once the total cap is reached later
 * files are skipped. Each folder is checked once to resolve inside the repository, and files
 * are opened without following a final symlink (O_NOFOLLOW; where the platform has none, as
 * on Windows, a file is looked at first), so a symlinked file is only read when the path guard
 * says it leads inside the repository.
 */
import { close, constants, fstat, lstat, open, read } from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { isSupervisorError, looksBinary, MAX_FILE_SIZE, MAX_TOTAL_SIZE, type FileText, type PackContext } from '../../core/plugin/index.ts';

const BATCH = 128;

// Plain fd calls: several times cheaper per file than FileHandle for thousands of small files.
const openFd = promisify(open);
const fstatFd = promisify(fstat);
const closeFd = promisify(close);
const lstatPath = promisify(lstat);
const readFd = (fd: number, buffer: Buffer, offset: number) =>
  new Promise<number>((resolve, reject) => read(fd, buffer, offset, buffer.length - offset, offset, (e, n) => (e ? reject(e) : resolve(n))));

/** Most source files are small: one read of this size usually gets the whole file, with no fstat. */
const FIRST_READ = 16 * 1024;

async function readRest(fd: number, first: Buffer, size: number): Promise<Buffer> {
  const buffer = Buffer.allocUnsafe(size);
  first.copy(buffer);
  let filled = first.length;
  while (filled < size) {
    const n = await readFd(fd, buffer, filled);
    if (n === 0) break; // the file shrank while we read it
    filled += n;
  }
  return filled === size ? buffer : buffer.subarray(0, filled);
}

export interface ReadReport {
  files: FileText[];
  tooLarge: string[];
  binary: string[];
  overTotal: string[];
  unreadable: string[];
  /** Symlinks (or paths through symlinked folders) that lead out of the repository. */
  outside: string[];
}

type Outcome = { kind: 'file'; bytes: Buffer } | { kind: 'tooLarge' | 'binary' | 'overTotal' | 'unreadable' | 'outside' };

/**
 * Reads `paths` (repository-relative, sorted). `noFollow` is the platform's O_NOFOLLOW flag,
 * a parameter so that the path taken without one can be tested anywhere.
 */
export async function readFiles(paths: string[], ctx: PackContext, noFollow: number | null = constants.O_NOFOLLOW ?? null): Promise<ReadReport> {
  const folders = new Map<string, Promise<string>>();
  const folder = (dir: string) => {
    let found = folders.get(dir);
    if (!found) folders.set(dir, (found = ctx.safePath(dir)));
    return found;
  };
  // O_NONBLOCK: a FIFO or device among the matches must not block a thread-pool thread forever.
  const flags = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

  async function openSafely(path: string): Promise<number> {
    const absolute = join(await folder(dirname(path)), path.slice(path.lastIndexOf('/') + 1));
    if (noFollow === null) {
      // No O_NOFOLLOW: look first, and send a symlink through the path guard.
      const symlink = (await lstatPath(absolute)).isSymbolicLink();
      return openFd(symlink ? await ctx.safePath(path) : absolute, flags);
    }
    try {
      return await openFd(absolute, flags | noFollow);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ELOOP') throw error;
      return openFd(await ctx.safePath(path), flags); // a symlinked file: check where it leads
    }
  }

  async function readOne(path: string, room: number): Promise<Outcome> {
    let fd: number;
    try {
      fd = await openSafely(path);
    } catch (error) {
      return { kind: isSupervisorError(error) ? 'outside' : 'unreadable' };
    }
    try {
      const first = Buffer.allocUnsafe(Math.min(FIRST_READ, MAX_FILE_SIZE + 1));
      const n = await readFd(fd, first, 0);
      let bytes: Buffer = first.subarray(0, n);
      if (n === first.length) {
        const info = await fstatFd(fd);
        if (!info.isFile()) return { kind: 'unreadable' };
        if (info.size > MAX_FILE_SIZE) return { kind: 'tooLarge' };
        if (info.size > room) return { kind: 'overTotal' };
        bytes = await readRest(fd, bytes, info.size);
      } else if (n > room) {
        return { kind: 'overTotal' };
      }
      return looksBinary(bytes) ? { kind: 'binary' } : { kind: 'file', bytes };
    } catch {
      return { kind: 'unreadable' };
    } finally {
      void closeFd(fd).catch(() => {}); // nobody waits for a close
    }
  }

  const report: ReadReport = { files: [], tooLarge: [], binary: [], overTotal: [], unreadable: [], outside: [] };
  let total = 0;
  for (let start = 0; start < paths.length; start += BATCH) {
    const batch = paths.slice(start, start + BATCH);
    const room = MAX_TOTAL_SIZE - total;
    const outcomes = await Promise.all(batch.map((path) => readOne(path, room)));
    outcomes.forEach((outcome, i) => {
      const path = batch[i]!;
      if (outcome.kind !== 'file') return void report[outcome.kind].push(path);
      // Decided in sorted order, so the same files make the cut on every run.
      if (total + outcome.bytes.length > MAX_TOTAL_SIZE) return void report.overTotal.push(path);
      total += outcome.bytes.length;
      report.files.push({ path, content: outcome.bytes.toString('utf8') });
    });
  }
  return report;
}

/** One-line notices for what was left out, naming a few files each. */
export function skippedNotices(packer: string, report: ReadReport): string[] {
  const mib = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MiB`;
  const name = (paths: string[]) => paths.slice(0, 5).join(', ') + (paths.length > 5 ? `, and ${paths.length - 5} more` : '');
  const lines: [string[], string][] = [
    [report.tooLarge, `over the per-file cap of ${mib(MAX_FILE_SIZE)}`],
    [report.overTotal, `past the total cap of ${mib(MAX_TOTAL_SIZE)}`],
    [report.binary, 'binary'],
    [report.outside, 'symlinks leading outside the repository'],
    [report.unreadable, 'unreadable'],
  ];
  return lines
    .filter(([paths]) => paths.length > 0)
    .map(([paths, why]) => `${packer}: skipped ${paths.length} file${paths.length === 1 ? '' : 's'} (${why}): ${name(paths)}`);
}

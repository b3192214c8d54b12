/**
 * The one place packing reads a file of the repository (targets, imports, always_include, and
 * the packers through `PackContext.readFiles`). Checking a path and then reading it is a race:
 * between the two a file or a folder on the way can be swapped for a symlink that leads
 * outside. So the check is made on what was opened, not on the path:
 *
 * 1. the final component is opened with O_NOFOLLOW (a symlinked file is resolved by the path
 *    guard first and its target opened, again with O_NOFOLLOW);
 * 2. the open descriptor's real path is read back (/proc/self/fd/N on Linux) and must lie in
 *    the repository and outside `.git`. Where there is no /proc, the path is resolved again
 *    after the open and its device and inode must be those of the open file, and every folder
 *    of that path below the root must be a folder (not a link) with the same device, inode and
 *    change time before and after that comparison: a folder swapped for a link and back meanwhile
 *    (a rename changes its change time) would let the comparison pass through the link.
 *
 * Only then is anything read, from the descriptor. Nothing under `.git/` is ever read. Then
 * every text is scanned for secrets (see secret-scan.ts) before it can reach a prompt.
 */
import { closeSync, constants, fstatSync, lstatSync, openSync, readlinkSync, readSync, realpathSync, statSync } from 'node:fs';
import { join, sep } from 'node:path';
import { realPathOrSelf } from '../fs/real-path.ts';
import { MAX_FILE_SIZE, MAX_TOTAL_SIZE } from '../files/constants.ts';
import type { ReadReport } from '../plugin-api/contracts.ts';
import { looksBinary } from '../files/file-section.ts';
import { isInside, type PathGuard } from './path-safety.ts';
import type { SecretRules, SecretScanner } from '../secrets/secret-scan.ts';

// Synchronous fd calls: a small file in the page cache takes a few microseconds to open, read
// and close, far less than three round trips through the thread pool (or a FileHandle).
const closeFd = (fd: number) => {
  try {
    closeSync(fd);
  } catch {
    // nothing to do about a failed close
  }
};
const readFd = (fd: number, buffer: Buffer, offset: number) => readSync(fd, buffer, offset, buffer.length - offset, offset);

/** Most source files are small: one read of this size usually gets the whole file, with no fstat. */
const FIRST_READ = 16 * 1024;

/** What reading one file gave. */
export type TextRead =
  | { kind: 'text'; content: string; bytes: number }
  | { kind: 'secret'; rules: SecretRules }
  /**
   * Not a regular file, over the per-file cap, over the room left, binary, failed to read,
   * leading outside the repository (through a symlink, even one swapped in while reading), or
   * inside `.git`.
   */
  | { kind: 'notFile' | 'tooLarge' | 'overRoom' | 'binary' | 'unreadable' | 'outside' | 'gitDir' };


export interface SafeReader {
  /** Reads one repository-relative file; `room` is what a total cap leaves. */
  read(relative: string, room?: number): Promise<TextRead>;
  /** Reads `paths` (repository-relative, sorted) a batch at a time, within the total cap, in their order. */
  readFiles(paths: readonly string[]): Promise<ReadReport>;
  /** Whether this reader read `path` as text, checked on the open file to lie inside the repository and outside `.git`. */
  readInside(path: string): boolean;
}

const GIT_SEGMENT = /(?:^|[/\\])\.git(?:$|[/\\])/i;

/** A `.git` segment anywhere (case-insensitive: macOS and Windows file systems are). */
export function isInGitDir(path: string): boolean {
  return GIT_SEGMENT.test(path);
}

class Refused extends Error {
  readonly kind: 'outside' | 'gitDir';
  constructor(kind: 'outside' | 'gitDir') {
    super(kind);
    this.kind = kind;
  }
}

export interface SafeReaderOptions {
  /** Secrets found are left out; the caller's notices name them. */
  scanner: SecretScanner;
  /** The platform's O_NOFOLLOW (a parameter so the path without one can be tested anywhere). */
  noFollow?: number | null;
  /** Read the descriptor's path from /proc (a parameter so the fallback can be tested on Linux). */
  procFd?: boolean;
}

export function createSafeReader(guard: PathGuard, options: SafeReaderOptions): SafeReader {
  const noFollow = options.noFollow === undefined ? (constants.O_NOFOLLOW ?? null) : options.noFollow;
  let useProc = options.procFd ?? process.platform === 'linux';
  // O_NONBLOCK: a FIFO or device among the matches must not block the process forever.
  const flags = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (noFollow ?? 0);
  let rootReal: string | undefined;
  // Unresolvable, the root stands as it is: every open is refused then.
  const top = () => (rootReal ??= realPathOrSelf(guard.root));

  /** Where the open file really is: from /proc, or (no /proc) the path resolved again, if it is that same file. */
  function realPathOf(fd: number, absolute: string): string {
    if (useProc) {
      try {
        // Synchronous: procfs answers from memory, and a thread-pool round trip per file costs more.
        const real = readlinkSync(`/proc/self/fd/${fd}`);
        if (real.startsWith('/')) return real;
      } catch {
        useProc = false; // no /proc here (a sandbox): the fallback, from now on
      }
    }
    // Synchronous, back to back: the window a swap must fall into is as short as it can be.
    const real = realpathSync(absolute);
    const root = top();
    if (!isInside(real, root)) return real; // refused by the caller
    const before = foldersOf(root, real);
    const opened = fstatSync(fd);
    const found = statSync(real);
    if (before === null || found.dev !== opened.dev || found.ino !== opened.ino || foldersOf(root, real) !== before) throw new Refused('outside');
    return real;
  }

  /** `absolute` opened without following a final symlink; null when it is one. */
  function openNoFollow(absolute: string): number | null {
    try {
      return openSync(absolute, flags);
    } catch (error) {
      // ELOOP: a symlink under O_NOFOLLOW (EMLINK on FreeBSD).
      const code = (error as NodeJS.ErrnoException).code;
      if (noFollow === null || (code !== 'ELOOP' && code !== 'EMLINK')) throw error;
      return null;
    }
  }

  async function openChecked(rel: string): Promise<number> {
    const root = top();
    // rel is normalised: where the separator is "/", joining is putting one between (join normalises again).
    let absolute = sep === '/' ? `${root}/${rel}` : join(root, rel);
    let fd = openNoFollow(absolute);
    if (fd === null) {
      // A symlinked file: where it leads now, if inside; what is opened is checked below anyway.
      absolute = await guard.resolve(rel).catch(() => {
        throw new Refused('outside');
      });
      fd = openSync(absolute, flags);
    }
    try {
      const real = realPathOf(fd, absolute);
      if (!isInside(real, root)) throw new Refused('outside');
      if (isInGitDir(real.slice(root.length))) throw new Refused('gitDir');
      return fd;
    } catch (error) {
      closeFd(fd);
      throw error;
    }
  }

  /** A file's bytes: in `first` when they fit it (most files), else in a buffer of their own. */
  async function readBytes(rel: string, room: number, first: Buffer): Promise<Buffer | Exclude<TextRead, { kind: 'text' | 'secret' }>> {
    let fd: number;
    try {
      const normal = guard.normalise(rel);
      if (isInGitDir(normal)) return { kind: 'gitDir' };
      fd = await openChecked(normal);
    } catch (error) {
      if (error instanceof Refused) return { kind: error.kind };
      // PATH_OUTSIDE_REPO from the lexical check or the guard: outside; anything else: unreadable.
      return { kind: (error as { code?: string }).code === 'PATH_OUTSIDE_REPO' ? 'outside' : 'unreadable' };
    }
    try {
      const n = readFirst(fd, first);
      if (n === -1) return { kind: 'notFile' };
      let bytes: Buffer = first.subarray(0, n);
      if (n === first.length) {
        const info = fstatSync(fd);
        if (!info.isFile()) return { kind: 'notFile' };
        if (info.size > MAX_FILE_SIZE) return { kind: 'tooLarge' };
        if (info.size > room) return { kind: 'overRoom' };
        bytes = readRest(fd, bytes, info.size);
      } else if (n > room) {
        return { kind: 'overRoom' };
      }
      return bytes;
    } catch {
      return { kind: 'unreadable' };
    } finally {
      closeFd(fd);
    }
  }

  /** The paths read as text, as given: what a packer reports it packed needs no second check when it is one of them. */
  const inside = new Set<string>();

  /**
   * The buffer first reads go into, lent to one read at a time: it holds a file's bytes only until
   * they are decoded and scanned (a scanner keeps none of them past its answer). Reads that overlap
   * (targets read side by side) take a buffer of their own. One 16 KiB buffer a file was most of
   * what a pack allocated, and the garbage collections it caused.
   */
  let spare: Buffer | null = Buffer.allocUnsafe(Math.min(FIRST_READ, MAX_FILE_SIZE + 1));

  async function readOne(rel: string, room = Number.POSITIVE_INFINITY): Promise<TextRead> {
    const first = spare ?? Buffer.allocUnsafe(Math.min(FIRST_READ, MAX_FILE_SIZE + 1));
    spare = null;
    try {
      const bytes = await readBytes(rel, room, first);
      if (!Buffer.isBuffer(bytes)) return bytes;
      if (looksBinary(bytes)) return { kind: 'binary' };
      const content = bytes.toString('utf8');
      const rules = await options.scanner.scan(rel, content, bytes);
      if (rules.length) return { kind: 'secret', rules };
      inside.add(rel);
      return { kind: 'text', content, bytes: bytes.length };
    } finally {
      spare = first;
    }
  }

  /** One file after another: reads are synchronous calls, so reading side by side gains nothing, and one buffer serves them all. */
  async function readFiles(paths: readonly string[]): Promise<ReadReport> {
    const report: ReadReport = { files: [], tooLarge: [], binary: [], overTotal: [], unreadable: [], outside: [], gitDir: [], secrets: [] };
    let total = 0;
    for (const path of paths) {
      const outcome = await readOne(path, MAX_TOTAL_SIZE - total);
      if (outcome.kind === 'secret') report.secrets.push({ path, rules: outcome.rules });
      else if (outcome.kind === 'overRoom') report.overTotal.push(path);
      else if (outcome.kind === 'notFile') report.unreadable.push(path);
      else if (outcome.kind !== 'text') report[outcome.kind].push(path);
      // Decided in sorted order, so the same files make the cut on every run.
      else if (total + outcome.bytes > MAX_TOTAL_SIZE) report.overTotal.push(path);
      else {
        total += outcome.bytes;
        report.files.push({ path, content: outcome.content });
      }
    }
    return report;
  }

  return { read: readOne, readFiles, readInside: (path) => inside.has(path) };
}

/**
 * Each folder from `root` down to the folder holding `real`: device, inode and change time
 * (nanoseconds), or null when one is not a folder (a link swapped in).
 */
function foldersOf(root: string, real: string): string | null {
  const marks: string[] = [];
  let dir = root;
  for (const part of real.slice(root.length + 1).split(sep).slice(0, -1)) {
    dir = join(dir, part);
    const found = lstatSync(dir, { bigint: true, throwIfNoEntry: false });
    if (!found?.isDirectory()) return null;
    marks.push(`${found.dev}:${found.ino}:${found.ctimeNs}`);
  }
  return marks.join('|');
}

/** The first bytes of an open file into `buffer`: how many, or -1 for a folder. */
function readFirst(fd: number, buffer: Buffer): number {
  try {
    return readFd(fd, buffer, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EISDIR') return -1;
    throw error;
  }
}

function readRest(fd: number, first: Buffer, size: number): Buffer {
  const buffer = Buffer.allocUnsafe(size);
  first.copy(buffer);
  let filled = first.length;
  while (filled < size) {
    const n = readFd(fd, buffer, filled);
    if (n === 0) break; // the file shrank while we read it
    filled += n;
  }
  return filled === size ? buffer : buffer.subarray(0, filled);
}

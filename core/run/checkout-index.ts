/**
 * The index of the user's checkout as its record keeps it (checkout-guard.ts). The record taken
 * before the CLI runs reads the index file whole instead of asking git for its entries (one git
 * fewer on every run); the record after, when the index file is not that very file any more and
 * not the same bytes either, lists the entries of both, the kept one through a private copy, so
 * an index git only wrote again (its stat data refreshed) is no change.
 */
import { createHash } from 'node:crypto';
import { closeSync, constants, fstatSync, lstatSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { git, type GitEnv } from '../git/git.ts';

/** A larger index is listed by git at once, not kept in memory. */
const KEPT_MAX_BYTES = 32 * 1024 * 1024;

export interface IndexFile {
  /** The file as it is on disk (git replaces it whole on every write: a new inode and change time); '' when `.git` is not a folder, 'none' when there is no index. */
  fingerprint: string;
  /** Its bytes, when asked for and it could be read as a plain file without following a link (SECURITY I3). */
  bytes?: Buffer;
}

function fingerprintOf(stat: { dev: bigint; ino: bigint; size: bigint; mtimeNs: bigint; ctimeNs: bigint }): string {
  return `${stat.dev} ${stat.ino} ${stat.size} ${stat.mtimeNs} ${stat.ctimeNs}`;
}

/** The main checkout's `.git/index`: its fingerprint, and with `read` its bytes (fingerprint and bytes of the one file opened). */
export function indexFileOf(root: string, read: boolean): IndexFile {
  if (!lstatSync(join(root, '.git'), { throwIfNoEntry: false })?.isDirectory()) return { fingerprint: '' };
  const path = join(root, '.git', 'index');
  if (read) {
    let fd: number | undefined;
    try {
      // A link or a FIFO a CLI put there is neither followed nor waited on.
      fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
      const stat = fstatSync(fd, { bigint: true });
      if (stat.isFile() && stat.size <= KEPT_MAX_BYTES) return { fingerprint: fingerprintOf(stat), bytes: readFileSync(fd) };
    } catch {
      // Not readable so: its entries are listed by git instead.
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
  }
  const stat = lstatSync(path, { throwIfNoEntry: false, bigint: true });
  return { fingerprint: stat ? fingerprintOf(stat) : 'none' };
}

function digestOf(text: string | Buffer): string {
  return createHash('sha256').update(text).digest('hex');
}

/** What the record says of an index it keeps: a digest of the file (entries are listed only when a later record needs them). */
export function keptIndexDigest(bytes: Buffer): string {
  return `file ${digestOf(bytes)}`;
}

/**
 * The index's digest for the record after `before`, whose index file is another by now, from its
 * entries listed now (`entries`): the earlier record's own digest when the entries are the same
 * (or the file the same bytes), so comparing the two says so. The kept index of `before` is listed
 * through a private copy; when it cannot be, the index counts as changed (never as the same unchecked).
 */
export async function indexAgainst(root: string, env: GitEnv | undefined, before: { index: string; keptIndex?: Buffer } | undefined, entries: string): Promise<string> {
  const digest = digestOf(entries);
  if (!before?.keptIndex) return digest;
  if (indexFileOf(root, true).bytes?.equals(before.keptIndex)) return before.index;
  const earlier = await keptEntries(root, env, before.keptIndex);
  return earlier !== null && digestOf(earlier) === digest ? before.index : digest;
}

/** `ls-files --stage -z` of a kept index, through a copy in a folder only this user can read; null when it could not be listed. */
async function keptEntries(root: string, env: GitEnv | undefined, bytes: Buffer): Promise<string | null> {
  let dir: string | undefined;
  try {
    dir = mkdtempSync(join(tmpdir(), 'sv-index-'));
    const copy = join(dir, 'index');
    writeFileSync(copy, bytes, { mode: 0o600 });
    const listed = await git(root, ['--no-optional-locks', 'ls-files', '--stage', '-z'], env, undefined, { GIT_INDEX_FILE: copy });
    return listed.ok ? listed.stdout : null;
  } catch {
    return null;
  } finally {
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
}

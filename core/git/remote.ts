/**
 * Git against a shared remote (issue 29): which remote `--remote` names, its refs, a fetch into
 * refs of ours only, a push that moves a ref only from the full sha we saw (never a bare
 * lease), and commits of our own files made without the user's index or checkout. Every
 * command goes through git.ts (hooks off, driver guard, no redirecting variables, no prompt).
 * SECURITY I7: what the remote holds is data; nothing here takes a path or git dir from it.
 */
import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { git, isObjectId, type GitEnv, type GitResult } from './git.ts';
import { remoteErrors } from './remote-errors.ts';

/**
 * git.ts forbids every transport (`protocol.allow=never`); these commands reach the remote by
 * the usual transports only. `ext::` (which runs a command named in the URL) stays off.
 */
const TRANSPORTS = ['file', 'https', 'http', 'ssh', 'git'].flatMap((name) => ['-c', `protocol.${name}.allow=always`]).concat(['-c', 'protocol.ext.allow=never']);
const IDENTITY = ['-c', 'user.name=supervisor', '-c', 'user.email=supervisor@localhost'];
/** A blob of the remote's state larger than this is refused, not read. */
const MAX_BLOB_BYTES = 16 * 1024 * 1024;

export interface RemoteTarget {
  /**
   * What git fetches from and pushes to: a URL or absolute path (a remote of this clone by its
   * URLs, so no push or fetch updates the user's remote-tracking refs of it).
   */
  arg: string;
  /** Where pushes go (a remote's pushurl when it has one); default `arg`. */
  push?: string;
  /** As the user gave it. */
  given: string;
}

/** The git context every remote operation needs: the clone it runs in and its environment. */
export interface RemoteGit {
  repoRoot: string;
  env: GitEnv;
  remote: RemoteTarget;
}

/** A ref of ours may hold only these characters (no `..`, no `@{`, no leading `-`: checked by `isRefName`). */
export function isSafeRefPart(part: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(part) && !part.includes('..') && !part.endsWith('.lock') && !part.endsWith('.');
}

/**
 * `--remote`: a remote of this clone by name, else a URL (`scheme://`, `user@host:path`) or a
 * path to a repository. A value starting with `-` would be read as an option: refused.
 */
export async function resolveRemote(repoRoot: string, given: string, env: GitEnv = process.env): Promise<RemoteTarget> {
  if (!given || given.startsWith('-') || /[\0\n\r]/.test(given)) throw remoteErrors.unknown(given, []);
  const listed = await git(repoRoot, ['remote'], env);
  const names = listed.ok ? listed.stdout.split('\n').map((s) => s.trim()).filter(Boolean) : [];
  if (names.includes(given)) {
    const [fetchUrl, pushUrl] = await Promise.all([git(repoRoot, ['remote', 'get-url', given], env), git(repoRoot, ['remote', 'get-url', '--push', given], env)]);
    if (!fetchUrl.ok || !pushUrl.ok) throw remoteErrors.unknown(given, names);
    return { arg: fetchUrl.stdout.trim(), push: pushUrl.stdout.trim(), given };
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(given) || /^([^/:@]+@)?[A-Za-z0-9.-]+:[^/]/.test(given)) return { arg: given, given };
  const path = isAbsolute(given) ? given : resolve(repoRoot, given);
  if (existsSync(path)) return { arg: path, given };
  throw remoteErrors.unknown(given, names);
}

/** A git command that talks to the remote: unreachable is REMOTE_UNREACHABLE, never a prompt. */
async function transport(ctx: RemoteGit, args: string[]): Promise<GitResult> {
  return git(ctx.repoRoot, [...TRANSPORTS, ...args], { ...ctx.env, GIT_TERMINAL_PROMPT: '0', GIT_ASKPASS: 'true', SSH_ASKPASS: 'true' });
}

/** The remote's refs matching `patterns` (full ref names or `refs/.../*`), name → sha. */
export async function listRemoteRefs(ctx: RemoteGit, patterns: string[]): Promise<Map<string, string>> {
  const result = await transport(ctx, ['ls-remote', '--refs', ctx.remote.arg, ...patterns]);
  if (!result.ok) throw remoteErrors.unreachable(ctx.remote.given, result.stderr);
  const refs = new Map<string, string>();
  for (const line of result.stdout.split('\n')) {
    const [sha, name] = line.split('\t');
    if (sha && name && isObjectId(sha)) refs.set(name, sha);
  }
  return refs;
}

/**
 * Fetches `refs` (remote name → our private ref) exactly as the remote holds them now, then
 * reads back what each private ref got. Private refs only: never `refs/heads` or the user's
 * remote-tracking refs (`refs/remotes`), and no FETCH_HEAD, tags or submodules.
 */
export async function fetchInto(ctx: RemoteGit, refs: Map<string, string>): Promise<Map<string, string>> {
  for (const into of refs.values()) {
    if (!into.startsWith('refs/supervisor/')) throw new Error(`fetchInto: ${into} is not a private ref of ours`);
  }
  const specs = [...refs].map(([from, into]) => `+${from}:${into}`);
  const fetched = new Map<string, string>();
  if (!specs.length) return fetched;
  const result = await transport(ctx, ['fetch', '--quiet', '--no-tags', '--no-write-fetch-head', '--no-recurse-submodules', '--no-auto-gc', '--refmap=', ctx.remote.arg, ...specs]);
  if (!result.ok) throw remoteErrors.unreachable(ctx.remote.given, result.stderr);
  const read = await git(ctx.repoRoot, ['for-each-ref', '--format=%(objectname) %(refname)', ...refs.values()], ctx.env);
  for (const line of read.stdout.split('\n')) {
    const [sha, name] = line.split(' ');
    if (sha && name) fetched.set(name, sha);
  }
  const byInto = new Map([...refs].map(([from, into]) => [into, from]));
  return new Map([...fetched].map(([into, sha]) => [byInto.get(into) ?? into, sha]));
}

/** Deletes private refs of ours (the fetched copies) when done. */
export async function dropPrivateRefs(ctx: Pick<RemoteGit, 'repoRoot' | 'env'>, refs: Iterable<string>): Promise<void> {
  const names = [...refs].filter((r) => r.startsWith('refs/supervisor/'));
  if (!names.length) return;
  await git(ctx.repoRoot, ['update-ref', '--stdin'], ctx.env, names.map((r) => `delete ${r}\n`).join(''));
}

/** One ref to move: from `expected` (a full sha; null: the ref must not exist) to `next`. */
export interface LeasedUpdate {
  ref: string;
  next: string;
  expected: string | null;
}

export type PushOutcome = { ok: true } | { ok: false; rejected: string[] };

/**
 * Pushes `updates` in one atomic push, each with `--force-with-lease=<ref>:<expected full sha>`
 * (`<ref>:` when it must be absent): the remote moves only if every ref is still what we saw.
 * A lease failure is `{ ok: false }` (fetch and rebuild); an unreachable remote throws.
 */
export async function pushWithLease(ctx: RemoteGit, updates: LeasedUpdate[]): Promise<PushOutcome> {
  if (!updates.length) return { ok: true };
  const leases: string[] = [];
  for (const u of updates) {
    if (!u.ref.startsWith('refs/') || !isObjectId(u.next)) throw new Error(`pushWithLease: bad update ${u.ref} → ${u.next}`);
    // SECURITY I7: never a bare lease; the expected value is always spelled out.
    if (u.expected !== null && !isObjectId(u.expected)) throw new Error(`pushWithLease: the lease on ${u.ref} needs a full sha, not "${u.expected}"`);
    leases.push(`--force-with-lease=${u.ref}:${u.expected ?? ''}`);
  }
  const atomic = updates.length > 1 ? ['--atomic'] : [];
  const result = await transport(ctx, ['push', '--porcelain', '--no-verify', '--no-recurse-submodules', ...atomic, ...leases, ctx.remote.push ?? ctx.remote.arg, ...updates.map((u) => `${u.next}:${u.ref}`)]);
  if (result.ok) return { ok: true };
  // Porcelain: one line per ref, `!` for a rejected one; none at all means the remote was not reached.
  const lines = result.stdout.split('\n').filter((l) => /^[ +\-*=!]\t/.test(l));
  if (!lines.length) throw remoteErrors.unreachable(ctx.remote.given, result.stderr);
  const refused = lines.filter((l) => l.startsWith('!'));
  if (!refused.length) throw remoteErrors.unreachable(ctx.remote.given, result.stderr);
  // `[remote rejected]`: a hook or a protected branch said no; only a lost lease is worth a retry.
  const declined = refused.find((l) => /\[remote rejected\]/.test(l) && !/atomic push failed/.test(l));
  if (declined) throw remoteErrors.rejected(ctx.remote.given, declined.split('\t').slice(1).join(' '));
  return { ok: false, rejected: refused.map((l) => l.split('\t')[1]?.split(':')[1] ?? '') };
}

/**
 * A commit holding exactly `files` (name → text, top level only), on `parent` (null: a root
 * commit), made with hash-object, mktree and commit-tree: no index, no checkout, no ref moves.
 */
export async function commitFiles(ctx: Pick<RemoteGit, 'repoRoot' | 'env'>, files: Record<string, string>, parent: string | null, message: string): Promise<string> {
  const entries: string[] = [];
  for (const [name, text] of Object.entries(files).sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (!isSafeRefPart(name)) throw new Error(`commitFiles: bad file name ${name}`);
    const blob = await git(ctx.repoRoot, ['hash-object', '-w', '--stdin'], ctx.env, text);
    if (!blob.ok) throw remoteErrors.gitFailed('hash-object', blob.stderr);
    entries.push(`100644 blob ${blob.stdout.trim()}\t${name}\n`);
  }
  const tree = await git(ctx.repoRoot, ['mktree'], ctx.env, entries.join(''));
  if (!tree.ok) throw remoteErrors.gitFailed('mktree', tree.stderr);
  const commit = await git(ctx.repoRoot, [...IDENTITY, 'commit-tree', tree.stdout.trim(), ...(parent ? ['-p', parent] : []), '-m', message], ctx.env);
  if (!commit.ok) throw remoteErrors.gitFailed('commit-tree', commit.stderr);
  return commit.stdout.trim();
}

/**
 * The text of `name` at the top of `commit`'s tree; null when there is no such entry. An entry
 * that is not a plain blob (a tree, a link, a submodule) or is too large is an error naming
 * `what` (the ref it came from): the remote's content is untrusted.
 */
export async function readFileAt(ctx: Pick<RemoteGit, 'repoRoot' | 'env'>, commit: string, name: string, what: string): Promise<string | null> {
  const listed = await git(ctx.repoRoot, ['ls-tree', '-l', '--full-tree', commit, '--', name], ctx.env);
  if (!listed.ok) throw remoteErrors.stateInvalid(what, name, `not a commit (${listed.stderr.trim()})`);
  const line = listed.stdout.split('\n').find((l) => l.endsWith(`\t${name}`));
  if (!line) return null;
  const [mode, type, sha, size] = line.split('\t')[0]!.split(/\s+/);
  if (mode !== '100644' || type !== 'blob' || !sha) throw remoteErrors.stateInvalid(what, name, `is a ${type} of mode ${mode}, not a plain file`);
  if (Number(size) > MAX_BLOB_BYTES) throw remoteErrors.stateInvalid(what, name, `is ${size} bytes (more than ${MAX_BLOB_BYTES})`);
  const blob = await git(ctx.repoRoot, ['cat-file', 'blob', sha], ctx.env);
  if (!blob.ok) throw remoteErrors.stateInvalid(what, name, blob.stderr.trim());
  return blob.stdout;
}

/** The values of trailer `key` on the first-parent line of `tip`, each with its commit (newest first). */
export async function firstParentTrailers(ctx: Pick<RemoteGit, 'repoRoot' | 'env'>, tip: string, key: string): Promise<{ commit: string; value: string }[]> {
  const log = await git(ctx.repoRoot, ['log', '--first-parent', `--format=%H%x01%(trailers:key=${key},valueonly,separator=%x00)`, tip, '--'], ctx.env);
  if (!log.ok) throw remoteErrors.gitFailed('log', log.stderr);
  return log.stdout.split('\n').flatMap((line) => {
    const [commit, values] = line.split('\x01');
    return commit && values ? values.split('\0').map((v) => ({ commit, value: v.trim() })).filter((t) => t.value) : [];
  });
}

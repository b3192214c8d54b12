/**
 * Runs git with an argument array through runProcess and its launcher (a timeout, the caller's
 * environment; core/process/launcher.ts). Retries briefly when another process holds a git lock.
 * Supervisor's own git never runs a command the repository's config or attributes name
 * (hooks, fsmonitor, filters, merge drivers, pagers, signing, auto gc: see NO_HOOKS and
 * driverGuard), and never follows GIT_DIR-style variables of the caller's environment: which
 * repository and work tree a command acts on is said by its cwd or its own flags.
 */
import { spawnSync } from 'node:child_process';
import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import { runProcess } from '../process/run-process.ts';
import { configState } from './config-state.ts';
import { gitErrors } from './errors.ts';

export interface GitResult {
  ok: boolean;
  stdout: string;
  stderr: string;
  code: number | null;
}

export type GitEnv = Record<string, string | undefined>;

/** A full object id, SHA-1 or SHA-256: what a git that printed a commit printed. */
export function isObjectId(text: string): boolean {
  return /^[0-9a-f]{40}([0-9a-f]{24})?$/.test(text);
}

const LOCK_RETRIES = 5;
/** Generous: `worktree add` and `add -A` on a large repository take a while, but never this long. */
const GIT_TIMEOUT_MS = 10 * 60 * 1000;
const GIT_OUTPUT_BYTES = 64 * 1024 * 1024;

/**
 * Before every command: no hooks (post-checkout, prepare-commit-msg, reference-transaction,
 * ...), no fsmonitor daemon, no pager, no signing program, no automatic gc or maintenance, no
 * submodule recursion and no transport (nothing of ours fetches). Commands keyed by a name
 * (filters, merge drivers) are switched off by driverGuard; content diffs of ours pass
 * `--no-ext-diff --no-textconv` (an empty `diff.external` would make git fail, not skip).
 */
export const NO_HOOKS = [
  '--no-pager',
  '-c', 'core.hooksPath=/dev/null',
  '-c', 'core.fsmonitor=false',
  '-c', 'core.pager=cat',
  '-c', 'commit.gpgSign=false',
  '-c', 'tag.gpgSign=false',
  '-c', 'gc.auto=0',
  '-c', 'maintenance.auto=false',
  '-c', 'submodule.recurse=false',
  '-c', 'protocol.allow=never',
];

/** Variables that would point git at another repository, index or object store than the one meant, or run a program. */
const REDIRECTING = ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE', 'GIT_COMMON_DIR', 'GIT_OBJECT_DIRECTORY', 'GIT_ALTERNATE_OBJECT_DIRECTORIES', 'GIT_NAMESPACE', 'GIT_PREFIX', 'GIT_EXTERNAL_DIFF', 'GIT_PAGER'];

/**
 * `-c` pairs that switch off every filter and merge driver the config defines, from
 * `git config --null --name-only --get-regexp '^(filter|merge)\.'` as that git reads it. Git
 * has no wildcard for `filter.*`, but a driver only runs when the config names its command:
 * an empty `clean`/`smudge`/`process` runs nothing (the file passes as it is, as with no
 * filter), `required=false` keeps a missing filter from failing, and a merge driver becomes
 * `false` (the file conflicts instead of being merged by a program). Attributes are left as
 * they are (line endings still apply); without a command behind them they run nothing.
 */
export function driverGuardArgs(names: string): string[] {
  const args: string[] = [];
  const seen = new Set<string>();
  for (const key of names.split(/\0|\n/)) {
    const match = /^(filter|merge)\.(.+)\.([^.]+)$/i.exec(key);
    if (!match) continue;
    const [, section, driver, leaf] = match as unknown as [string, string, string, string];
    const kind = section.toLowerCase();
    if (kind === 'merge' && leaf.toLowerCase() !== 'driver') continue;
    const id = `${kind}.${driver}`;
    // `-c` splits at the first `=`: such a driver could not be switched off, so git does not run.
    if (driver.includes('=')) throw gitErrors.unguardableDriver(kind, driver);
    if (seen.has(id)) continue;
    seen.add(id);
    if (kind === 'filter') args.push('-c', `${id}.clean=`, '-c', `${id}.smudge=`, '-c', `${id}.process=`, '-c', `${id}.required=false`);
    else args.push('-c', `${id}.driver=false`);
  }
  return args;
}

/** The guard for the config a git with `pre` (e.g. `--git-dir=... --work-tree=...`) in cwd reads. */
export async function readDriverGuard(cwd: string, pre: string[], env: GitEnv): Promise<string[]> {
  const listed = await once(cwd, [...pre, 'config', '--null', '--name-only', '--get-regexp', '^(filter|merge)\\.'], env, []);
  // Exit 1: no such variable. Anything else means the names are unknown: no git runs unguarded.
  if (!listed.ok && listed.code !== 1) throw gitErrors.configUnlisted(listed.stderr, listed.code);
  return listed.ok ? driverGuardArgs(listed.stdout) : [];
}

/**
 * Driver guards by the state of the config files their git reads (config-state.ts): one `git
 * config` per state, whichever folder asked first (a run's worktree with no config of its own
 * reads what the user's checkout reads); every time for a state that cannot be known (null).
 */
const guardsByState = new Map<string, Promise<string[]>>();
const GUARDS_KEPT = 64;
export function guardOfState(state: string | null, read: () => Promise<string[]>): Promise<string[]> {
  if (state === null) return read();
  const known = guardsByState.get(state);
  if (known) return known;
  const guard = read();
  guardsByState.set(state, guard);
  if (guardsByState.size > GUARDS_KEPT) guardsByState.delete(guardsByState.keys().next().value!);
  return guard;
}

/**
 * The guard of a folder's config. A main checkout's (`.git` a folder) is read once per state of
 * the config files it reads (guardOfState); any other folder's, a linked worktree's whose admin
 * folder a sandboxed CLI can write, is read anew for every command. Bound git reads its own
 * (bound-git.ts).
 */
function folderGuard(cwd: string, env: GitEnv): Promise<string[]> {
  const dotGit = join(cwd, '.git');
  if (!lstatSync(dotGit, { throwIfNoEntry: false })?.isDirectory()) return readDriverGuard(cwd, [], env);
  return guardOfState(configState({ commonDir: dotGit, gitDir: dotGit }, env), () => readDriverGuard(cwd, [], env));
}

/**
 * Starts reading the guard of a folder's config before its first git needs it (findRepoRoot asks
 * while git finds the repository, whose root is most often the folder it started in).
 */
export function readGuardAhead(cwd: string, env: GitEnv = process.env): void {
  // Only a main checkout's guard is kept (folderGuard): any other would be read again anyway.
  if (lstatSync(join(cwd, '.git'), { throwIfNoEntry: false })?.isDirectory()) void unguardable(folderGuard(cwd, env));
}

/** The caller's environment without the redirecting variables, and never a credential prompt. */
export function gitEnv(env: GitEnv): GitEnv {
  const clean: GitEnv = { ...env, GIT_TERMINAL_PROMPT: '0' };
  for (const name of REDIRECTING) delete clean[name];
  return clean;
}

async function once(cwd: string, args: string[], env: GitEnv, guard: string[], stdin?: string, own?: GitEnv): Promise<GitResult> {
  const proc = await runProcess({
    ...(stdin === undefined ? {} : { stdin }),
    bin: 'git',
    args: [...NO_HOOKS, ...guard, ...args],
    cwd,
    env: { ...gitEnv(env), ...own },
    timeoutMs: GIT_TIMEOUT_MS,
    maxOutputBytes: GIT_OUTPUT_BYTES,
    viaLauncher: true, // a git a run makes is ~20 of them: not a fork of this whole process each
  });
  const why = proc.spawnError ?? (proc.timedOut ? `timed out after ${GIT_TIMEOUT_MS / 1000}s` : '');
  return { ok: proc.exitCode === 0 && !proc.timedOut, stdout: proc.stdout, stderr: proc.stderr || why, code: proc.exitCode };
}

/**
 * `git <args>` in cwd; never throws (a failing git is a value). `env` is the whole
 * environment git gets (the run's, as the CLI gets it); default: this process's. `own`:
 * variables of ours set after the caller's are cleaned (an index file of ours, GIT_INDEX_FILE).
 */
export async function git(cwd: string, args: string[], env: GitEnv = process.env, stdin?: string, own?: GitEnv): Promise<GitResult> {
  const guard = await unguardable(folderGuard(cwd, env));
  return typeof guard === 'string' ? refused(guard) : guardedGit(cwd, args, env, guard, stdin, own);
}

/** The guard, or why there is none (readDriverGuard refuses): then no git runs, and the reason is git's failure. */
export async function unguardable(guard: Promise<string[]>): Promise<string[] | string> {
  try {
    return await guard;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** A git that was not run, as a failed result. */
export function refused(reason: string): GitResult {
  return { ok: false, stdout: '', stderr: reason, code: null };
}

/**
 * `git <args>` with the driver guard given (bound git reads its own). `own`: variables of ours
 * set after the caller's are cleaned (bound git's GIT_INDEX_FILE, own-index.ts).
 */
export async function guardedGit(cwd: string, args: string[], env: GitEnv, guard: string[], stdin?: string, own?: GitEnv): Promise<GitResult> {
  for (let attempt = 0; ; attempt++) {
    const result = await once(cwd, args, env, guard, stdin, own);
    // Parallel runs in one repository can meet on a ref or config lock for a moment.
    if (result.ok || attempt >= LOCK_RETRIES || !/\.lock'?: File exists|Unable to create .*\.lock|cannot lock ref/i.test(result.stderr)) {
      return result;
    }
    await new Promise((r) => setTimeout(r, 50 * (attempt + 1)));
  }
}

/** Like `git` but throws a GitError (GIT_FAILED, carrying git's stderr) when it fails. */
export async function gitOrThrow(cwd: string, args: string[], env?: GitEnv): Promise<string> {
  const result = await git(cwd, args, env);
  if (!result.ok) throw gitErrors.failed(args, result.stderr, result.code);
  return result.stdout;
}

/**
 * What goes before the subcommand of any git run outside this module (the git-diff packer's,
 * through the plugin API): NO_HOOKS and the driver guard of the folder's config as it is now.
 */
export async function gitSafetyArgs(cwd: string, env: GitEnv = process.env): Promise<string[]> {
  return [...NO_HOOKS, ...(await folderGuard(cwd, env))];
}

/**
 * A listing git that must answer synchronously (the state folder's check, core/state-dir.ts):
 * hooks off and the caller's GIT_DIR-style variables dropped as for every git; only for read-only
 * commands that run no filter or merge driver (`ls-files`), so no driver guard is needed.
 */
export function listingGitSync(cwd: string, args: string[], env: GitEnv = process.env): GitResult {
  const listed = spawnSync('git', [...NO_HOOKS, ...args], { cwd, env: gitEnv(env), encoding: 'utf8', maxBuffer: GIT_OUTPUT_BYTES, timeout: GIT_TIMEOUT_MS });
  return { ok: listed.status === 0, stdout: listed.stdout ?? '', stderr: (listed.stderr || listed.error?.message || '').trim(), code: listed.status };
}

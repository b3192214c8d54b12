/**
 * The state folder `<repo>/.supervisor/`: `runs/<run-id>/` (the run log), `workflows/<id>/` (a
 * workflow's state) and `cache/`; and the repository's worktrees, outside its checkout (below). A `.gitignore` written on first use keeps
 * runs and worktrees (and itself) out of git, so `git status` in the user's checkout stays clean.
 * An existing `.gitignore` is the user's and is left alone.
 *
 * Every state path is derived here, and checked here (SECURITY I4): a repository may carry
 * `.supervisor/` (its roles, plugins, plans), but not our state. A `.supervisor` or state
 * folder that is a symbolic link (or not a folder), that resolves outside the repository, or
 * under which git tracks state files, is refused with STATE_DIR_UNSAFE: otherwise a clone would
 * choose where we write run logs and worktrees, or hand us a forged workflow to resume.
 */
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, lstatSync, mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { errors } from './errors.ts';
import { git, listingGitSync } from './git/git.ts';

const STATE_DIR_NAME = '.supervisor';

const GITIGNORE = `# Written by supervisor: run logs and worktrees stay out of git.
/runs/
/worktrees/
/.gitignore
`;

export interface StatePaths {
  root: string;
  runs: string;
  /** The repository's worktrees (runs' `<run-id>/`, workflows' `wf/<id>/`): outside the checkout, see worktreesDir. */
  worktrees: string;
  workflows: string;
  cache: string;
}

/** What git may not track: all of runs/, worktrees/ and cache/, and each workflow's state folder (plans beside them are the repository's). */
const STATE_PATHSPECS = [`${STATE_DIR_NAME}/runs`, `${STATE_DIR_NAME}/worktrees`, `${STATE_DIR_NAME}/cache`, `:(glob)${STATE_DIR_NAME}/workflows/*/**`];

/** Repositories whose state paths git was asked about (once per process: a run's own commits never add them). */
const untracked = new Set<string>();

export function statePaths(repoRoot: string): StatePaths {
  const root = join(repoRoot, STATE_DIR_NAME);
  const paths = { root, runs: join(root, 'runs'), worktrees: worktreesDir(repoRoot), workflows: join(root, 'workflows'), cache: join(root, 'cache') };
  checkStateDir(repoRoot, paths);
  checkWorktreesDir(paths.worktrees);
  return paths;
}

type Env = Record<string, string | undefined>;

/**
 * Where every repository's worktrees folder is: SUPERVISOR_WORKTREES_DIR, else
 * `$XDG_STATE_HOME/supervisor/worktrees`, else `~/.supervisor/worktrees`. Never inside a
 * checkout: Node's module resolution and tools that look upward for their configuration would
 * find the user's `node_modules` and settings from a worktree there (issue 28, item 4).
 */
export function worktreesHome(env: Env = process.env): string {
  return userFolder(env, {
    variable: 'SUPERVISOR_WORKTREES_DIR',
    what: 'keeps worktrees in by its full path, e.g. /var/tmp/supervisor-worktrees',
    xdg: env.XDG_STATE_HOME && join(env.XDG_STATE_HOME, 'supervisor', 'worktrees'),
    home: ['.supervisor', 'worktrees'],
  });
}

/** A folder of the user's own: the variable's absolute path, else under the XDG folder, else under the home folder. */
function userFolder(env: Env, where: { variable: string; what: string; xdg: string | undefined; home: string[] }): string {
  const chosen = env[where.variable];
  if (chosen !== undefined && chosen.trim() !== '') {
    if (!isAbsolute(chosen)) throw errors.usage(`${where.variable} must be an absolute path, got "${chosen}"`, `name the folder supervisor ${where.what}, or unset it`);
    return resolve(chosen);
  }
  if (where.xdg && isAbsolute(where.xdg)) return where.xdg;
  return join(env.HOME && isAbsolute(env.HOME) ? env.HOME : homedir(), ...where.home);
}

/**
 * THE place a repository's worktrees live: `<worktreesHome>/<name>-<hash>`, keyed by the real
 * path of the repository (two clones never share a folder, a moved clone gets a new one). Made
 * of our own names only: nothing a repository or a CLI wrote chooses it (SECURITY I4).
 */
export function worktreesDir(repoRoot: string, env: Env = process.env): string {
  const real = realOr(repoRoot);
  const key = createHash('sha256').update(real).digest('hex').slice(0, 16);
  const name = basename(real).replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 40) || 'repo';
  return join(worktreesHome(env), `${name}-${key}`);
}

/**
 * The user's cache folder, shared by every repository: SUPERVISOR_CACHE_DIR, else
 * `$XDG_CACHE_HOME/supervisor`, else `~/.cache/supervisor`. Outside every checkout and
 * worktree, so neither a repository nor a CLI working in one chooses what is cached there.
 */
export function userCacheDir(env: Env = process.env): string {
  return userFolder(env, { variable: 'SUPERVISOR_CACHE_DIR', what: 'keeps its caches in by its full path', xdg: env.XDG_CACHE_HOME && join(env.XDG_CACHE_HOME, 'supervisor'), home: ['.cache', 'supervisor'] });
}

/** Makes the user's cache folder if missing, 0700, checked as the worktrees folders are (SECURITY I4); returns it. */
export function ensureUserCacheDir(env: Env = process.env): string {
  const dir = userCacheDir(env);
  checkUserFolder(dir);
  if (!existsSync(dir)) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    chmodSync(dir, 0o700);
  }
  checkUserFolder(dir);
  return dir;
}

function realOr(path: string): string {
  return real(path) ?? resolve(path);
}

/**
 * SECURITY I4 for the folders of this user's own (the worktrees home and a repository's, the
 * cache folder): each that exists is a real folder (not a link), ours, and writable by nobody
 * else; else STATE_DIR_UNSAFE.
 */
function checkWorktreesDir(dir: string): void {
  checkUserFolder(dirname(dir));
  checkUserFolder(dir);
}

function checkUserFolder(folder: string): void {
  const stat = lstatSync(folder, { throwIfNoEntry: false });
  if (!stat) return;
  if (!stat.isDirectory()) throw errors.stateDirUnsafe(folder, stat.isSymbolicLink() ? 'is a symbolic link' : 'is not a folder');
  const uid = process.getuid?.();
  if (uid !== undefined && stat.uid !== uid) throw errors.stateDirUnsafe(folder, `belongs to another user (uid ${stat.uid})`);
  if (stat.mode & 0o022) throw errors.stateDirUnsafe(folder, `may be written by other users (mode ${(stat.mode & 0o777).toString(8)})`);
}

/** Makes the repository's worktrees folder (and its home) if missing, 0700, and checks them. */
export function ensureWorktreesDir(repoRoot: string, env: Env = process.env): string {
  const dir = worktreesDir(repoRoot, env);
  checkWorktreesDir(dir); // nothing is made through a link
  for (const folder of [dirname(dir), dir]) {
    if (existsSync(folder)) continue;
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    chmodSync(folder, 0o700); // the umask may have taken bits the mode asked for; never more than 0700
  }
  checkWorktreesDir(dir);
  return dir;
}

function real(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}

/** SECURITY I4: throws STATE_DIR_UNSAFE when the state folder is one a repository could have chosen. */
function checkStateDir(repoRoot: string, paths: StatePaths): void {
  const top = lstatSync(paths.root, { throwIfNoEntry: false });
  if (!top) return;
  if (!top.isDirectory()) throw errors.stateDirUnsafe(paths.root, top.isSymbolicLink() ? 'is a symbolic link' : 'is not a folder');
  const repo = real(repoRoot);
  if (repo !== null && real(paths.root) !== join(repo, STATE_DIR_NAME)) throw errors.stateDirUnsafe(paths.root, 'resolves outside the repository');
  for (const folder of [paths.runs, paths.workflows, paths.cache]) {
    const stat = lstatSync(folder, { throwIfNoEntry: false });
    if (stat && !stat.isDirectory()) throw errors.stateDirUnsafe(folder, stat.isSymbolicLink() ? 'is a symbolic link' : 'is not a folder');
  }
  if (untracked.has(repoRoot)) return;
  const listed = listingGitSync(repoRoot, ['ls-files', '-z', '--', ...STATE_PATHSPECS]);
  // Fail closed: a repository whose state files could not be listed is not taken as having none (outside git, a run in place, there are none).
  if (!listed.ok && existsSync(join(repoRoot, '.git'))) throw errors.stateDirUnsafe(paths.root, `could not be checked for tracked state files (git ls-files: ${listed.stderr || 'failed'})`);
  const tracked = listed.ok ? listed.stdout.split('\0').filter(Boolean) : [];
  if (tracked.length) throw errors.stateDirUnsafe(join(repoRoot, tracked[0]!), `is tracked by git (${tracked.length} state file${tracked.length > 1 ? 's' : ''} committed in the repository)`);
  untracked.add(repoRoot);
}

/**
 * The tracked-state check of checkStateDir through async git, started early (a run asks it while
 * it packs), so the first statePaths need not wait for a git of its own. Only a clean answer is
 * kept; anything else is left to checkStateDir to find again and throw.
 */
export async function checkStateFilesEarly(repoRoot: string): Promise<void> {
  if (untracked.has(repoRoot)) return;
  const listed = await git(repoRoot, ['ls-files', '-z', '--', ...STATE_PATHSPECS]);
  if (listed.ok && listed.stdout === '') untracked.add(repoRoot);
}

/** Creates the state folder and its `.gitignore` if missing; safe to call from parallel runs. */
export function ensureStateDir(repoRoot: string): StatePaths {
  const paths = statePaths(repoRoot);
  mkdirSync(paths.runs, { recursive: true });
  try {
    // 'wx': never overwrite the user's .gitignore, nor one a parallel run has just written.
    writeFileSync(join(paths.root, '.gitignore'), GITIGNORE, { flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return paths;
}

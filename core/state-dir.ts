/**
 * The state folder `<repo>/.supervisor/`: `runs/<run-id>/` (the run log), `worktrees/`,
 * `workflows/<id>/` (a workflow's state) and `cache/`. A `.gitignore` written on first use keeps
 * runs and worktrees (and itself) out of git, so `git status` in the user's checkout stays clean.
 * An existing `.gitignore` is the user's and is left alone.
 *
 * Every state path is derived here, and checked here (SECURITY I4): a repository may carry
 * `.supervisor/` (its roles, plugins, plans), but not our state. A `.supervisor` or state
 * folder that is a symbolic link (or not a folder), that resolves outside the repository, or
 * under which git tracks state files, is refused with STATE_DIR_UNSAFE: otherwise a clone would
 * choose where we write run logs and worktrees, or hand us a forged workflow to resume.
 */
import { existsSync, lstatSync, mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { errors } from './errors.ts';
import { listingGitSync } from './git/git.ts';

const STATE_DIR_NAME = '.supervisor';

const GITIGNORE = `# Written by supervisor: run logs and worktrees stay out of git.
/runs/
/worktrees/
/.gitignore
`;

export interface StatePaths {
  root: string;
  runs: string;
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
  const paths = { root, runs: join(root, 'runs'), worktrees: join(root, 'worktrees'), workflows: join(root, 'workflows'), cache: join(root, 'cache') };
  checkStateDir(repoRoot, paths);
  return paths;
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
  for (const folder of [paths.runs, paths.worktrees, paths.workflows, paths.cache]) {
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

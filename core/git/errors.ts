/** Git errors: a GitError (a SupervisorError) with stable GIT_* codes, configuration errors (exit 2). */
import { SupervisorError, type SupervisorErrorOptions } from '../errors.ts';

export class GitError extends SupervisorError {
  constructor(code: `GIT_${string}`, message: string, options: SupervisorErrorOptions = {}) {
    super(code, message, options);
  }
}

/** git's own words for a failure: its stderr, else its exit code. */
const why = (stderr: string, exit: number | null) => stderr.trim() || `exit ${exit}`;

export const gitErrors = {
  /** A git command that had to succeed failed. */
  failed: (args: readonly string[], stderr: string, exit: number | null) =>
    new GitError('GIT_FAILED', `git ${args.join(' ')} failed: ${why(stderr, exit)}`, {
      details: { args: [...args], exit, stderr: stderr.trim() },
      hint: 'Run the same git command in the repository to see why; supervisor changes nothing of your checkout.',
    }),
  /** A filter or merge driver whose name holds '=': `-c` cannot switch it off, so no git of ours runs. */
  unguardableDriver: (kind: string, driver: string) =>
    new GitError(
      'GIT_DRIVER_UNGUARDABLE',
      `git's config names the ${kind} driver "${driver}", which holds "=": supervisor cannot switch it off for its own git commands, so it runs none; rename it in the repository's config`,
      { details: { kind, driver }, hint: `Rename the ${kind} driver in .git/config (or the config file that defines it) to a name without "=".` },
    ),
  /** The config could not be listed, so the drivers to switch off are unknown: no git of ours runs. */
  configUnlisted: (stderr: string, exit: number | null) =>
    new GitError('GIT_CONFIG_UNREADABLE', `git config could not list the filters and merge drivers to switch off: ${why(stderr, exit)}`, {
      details: { exit, stderr: stderr.trim() },
      hint: 'Fix the repository\'s git config (git config --list shows the problem).',
    }),
  /** A worktree's git dir is not where git keeps this repository's worktrees. */
  worktreeForeign: (gitDir: string, commonDir: string) =>
    new GitError('GIT_WORKTREE_FOREIGN', `the worktree's git dir ${gitDir} is not inside ${commonDir}/worktrees`, {
      details: { gitDir, commonDir },
      hint: 'The folder was not made by `git worktree add` in this repository; supervisor binds git only to worktrees it made.',
    }),
  /** A worktree's admin folder or own index cannot be trusted (SECURITY I3). */
  worktreeUnsafe: (path: string, problem: string) =>
    new GitError('GIT_WORKTREE_UNSAFE', `the worktree at ${path} cannot be bound: ${problem}`, {
      details: { path, problem },
      hint: 'Remove the worktree (git worktree remove --force) and run again.',
    }),
  /** Commit or merge asked of a worktree a command ran in after it was checked. */
  worktreeUnverified: (path: string) =>
    new GitError('GIT_WORKTREE_UNVERIFIED', `the worktree at ${path} was not checked since a command last ran in it, so supervisor commits nothing there`, {
      details: { path },
      hint: 'This is a bug in supervisor: the worktree must be checked after every command that ran in it. Please report it.',
    }),
};

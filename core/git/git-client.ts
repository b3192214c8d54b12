/**
 * The one shape of every git of ours: a client for the user's checkout (`checkoutGit`) and a
 * client bound to one worktree (`boundGit`, bound-git.ts) answer the same two calls, so code that
 * takes a client never knows, or chooses, which repository a folder looks like it belongs to.
 */
import { git, type GitEnv, type GitResult } from './git.ts';
import { gitErrors } from './errors.ts';

export interface GitClient {
  /** git's result as a value: a failing git does not throw. */
  run(args: string[]): Promise<GitResult>;
  /** git's stdout; a GitError (GIT_FAILED, with git's stderr) when git fails. */
  runOrThrow(args: string[]): Promise<string>;
}

/** A client whose runOrThrow is `run` that must succeed. */
export function clientOf(run: (args: string[]) => Promise<GitResult>): GitClient {
  return {
    run,
    runOrThrow: async (args) => {
      const result = await run(args);
      if (!result.ok) throw gitErrors.failed(args, result.stderr, result.code);
      return result.stdout;
    },
  };
}

/** Git in the user's checkout (its own `.git` folder decides; hooks and drivers off, git.ts). */
export function checkoutGit(repoRoot: string, env?: GitEnv): GitClient {
  return clientOf((args) => git(repoRoot, args, env));
}

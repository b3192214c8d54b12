/**
 * Applies a canned change (the replay adapter's `.patch`) to the work tree `__emit` runs in,
 * with supervisor's own git (no hooks, filters or drivers of the repository's config): bound to
 * the worktree's admin folder when the adapter named it, else git in the folder. `git apply`
 * refuses paths outside the work tree and through symbolic links. A change already applied (a
 * retry in the same worktree) is left as it is.
 */
import { boundGit } from '../git/bound-git.ts';
import { git, type GitResult } from '../git/git.ts';

export interface CannedChange {
  patch: string;
  workTree: string;
  /** The worktree's admin and common git dirs (CommandRequest.git), when it is one the core made. */
  gitDir?: string;
  commonDir?: string;
}

export type ApplyOutcome = { applied: true } | { applied: false; already: true } | { applied: false; already: false; why: string };

export async function applyCannedChange(change: CannedChange): Promise<ApplyOutcome> {
  const run = change.gitDir && change.commonDir
    ? (() => {
        const bound = boundGit({ path: change.workTree, gitDir: change.gitDir, commonDir: change.commonDir });
        return (args: string[]) => bound.run(args);
      })()
    : (args: string[]) => git(change.workTree, args);
  const apply = (extra: string[]): Promise<GitResult> => run(['apply', '--whitespace=nowarn', ...extra, change.patch]);
  const check = await apply(['--check']);
  if (check.ok) {
    const done = await apply([]);
    return done.ok ? { applied: true } : { applied: false, already: false, why: done.stderr.trim() || `exit ${done.code}` };
  }
  if ((await apply(['--reverse', '--check'])).ok) return { applied: false, already: true };
  return { applied: false, already: false, why: check.stderr.trim() || `exit ${check.code}` };
}

/**
 * Where a run's worktree starts and what a reviewer reviews (`--base`, `--review`): refs
 * resolved to full commit ids once, before anything runs, so the run never follows a branch
 * that moves under it.
 */
import { errors } from '../errors.ts';
import { git, isObjectId, type GitEnv } from '../git/git.ts';

export interface ReviewRange {
  base: string;
  head: string;
  /** No commit in `base..head`: nothing to review. */
  empty: boolean;
  /** As given, for messages. */
  spec: string;
}

/** The commit a ref names, or a usage error naming the flag. */
export async function resolveCommit(repoRoot: string, ref: string, flag: string, env?: GitEnv): Promise<string> {
  if (!ref.trim() || ref.startsWith('-')) throw errors.usage(`${flag} needs a commit or branch, got "${ref}"`);
  const result = await git(repoRoot, ['rev-parse', '--verify', '-q', `${ref}^{commit}`], env);
  if (!result.ok) throw errors.usage(`${flag} ${ref}: no such commit or branch in ${repoRoot}`, 'Give a branch name, a tag or a commit id (git rev-parse must know it).');
  return result.stdout.trim();
}

/**
 * Both ends of a range with one git (a reviewer's range is resolved for every review); when
 * one fails, each is resolved alone so the error names it.
 */
async function resolveCommits(repoRoot: string, refs: [string, string], flag: string, env?: GitEnv): Promise<[string, string]> {
  if (refs.every((ref) => ref.trim() && !ref.startsWith('-'))) {
    // `--`: both are revisions, never paths.
    const both = await git(repoRoot, ['rev-parse', ...refs.map((ref) => `${ref}^{commit}`), '--'], env);
    // It prints the two ids, then the `--`.
    const [first = '', second = ''] = both.stdout.split('\n');
    if (both.ok && isObjectId(first) && isObjectId(second)) return [first, second];
  }
  return [await resolveCommit(repoRoot, refs[0], flag, env), await resolveCommit(repoRoot, refs[1], flag, env)];
}

/**
 * `<base>..<head>` as given, or a branch: its commits since the merge base with `base`
 * (the run's --base, else HEAD).
 */
export async function resolveReviewRange(repoRoot: string, spec: string, against: string | undefined, env?: GitEnv): Promise<ReviewRange> {
  const dots = spec.indexOf('..');
  let base: string;
  let head: string;
  if (dots >= 0) {
    if (spec.slice(dots + 2).startsWith('.')) throw errors.usage(`--review ${spec}: give <base>..<head> (two dots) or a branch name`);
    const ends: [string, string] = [spec.slice(0, dots) || 'HEAD', spec.slice(dots + 2) || 'HEAD'];
    // Two commit ids (a workflow's ranges): counted while they are resolved, as they resolve to themselves.
    const counting = ends.every(isObjectId) ? rangeIsEmpty(repoRoot, ends[0], ends[1], env) : null;
    counting?.catch(() => {});
    [base, head] = await resolveCommits(repoRoot, ends, '--review', env);
    if (counting && base === ends[0] && head === ends[1]) return { base, head, empty: await counting, spec };
  } else {
    head = await resolveCommit(repoRoot, spec, '--review', env);
    const other = await resolveCommit(repoRoot, against ?? 'HEAD', against ? '--base' : '--review', env);
    const mergeBase = await git(repoRoot, ['merge-base', other, head], env);
    if (!mergeBase.ok) throw errors.usage(`--review ${spec}: it shares no history with ${against ?? 'HEAD'}`, 'Give the range as <base>..<head>.');
    base = mergeBase.stdout.trim();
  }
  return { base, head, empty: await rangeIsEmpty(repoRoot, base, head, env), spec };
}

/** Whether `base..head` holds no commit (`rev-list --count`). */
async function rangeIsEmpty(repoRoot: string, base: string, head: string, env?: GitEnv): Promise<boolean> {
  const count = await git(repoRoot, ['rev-list', '--count', `${base}..${head}`], env);
  return count.ok && count.stdout.trim() === '0';
}

/**
 * Whether git tracks a file, and whether HEAD holds it as it is now: `workflow export` points
 * its jobs at the plan by path only when the commit a runner checks out can hold it.
 */
import { git, type GitEnv } from './git.ts';

export interface TrackedFile {
  /** In git's index. */
  tracked: boolean;
  /** HEAD holds these very bytes (false: not committed, or changed since). */
  committed: boolean;
}

/** `rel`: a path relative to the repository root, with "/" separators. */
export async function trackedFile(repoRoot: string, rel: string, env: GitEnv = process.env): Promise<TrackedFile> {
  const listed = await git(repoRoot, ['ls-files', '--error-unmatch', '--', `:(literal)${rel}`], env);
  if (!listed.ok) return { tracked: false, committed: false };
  // Bytes as git stores them (no textconv, no filters): compared with the file's own bytes.
  const blob = await git(repoRoot, ['rev-parse', '--verify', '--quiet', `HEAD:${rel}`], env);
  if (!blob.ok) return { tracked: true, committed: false };
  const here = await git(repoRoot, ['hash-object', '--no-filters', '--', rel], env);
  return { tracked: true, committed: here.ok && here.stdout.trim() === blob.stdout.trim() };
}

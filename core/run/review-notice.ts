/**
 * A reviewer with nothing to review says so: a role whose context asks for the git parts
 * (the staged diff, $CHANGED_FILES, or a --review range) but whose prompt holds none of them
 * would otherwise "pass" an empty diff.
 */
import { GIT_DIFF_PACKER } from '../files/constants.ts';
import { resolveGit, resolvePatterns } from '../context/patterns.ts';
import type { BuiltPrompt } from '../prompt/build-prompt.ts';
import type { Role } from '../roles/role.ts';
import type { ReviewRange } from './start-point.ts';

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

function wantsGit(role: Role): boolean {
  const context = role.context;
  let includes;
  try {
    includes = resolvePatterns(strings(context.include));
  } catch {
    return false; // packing refused the patterns already; not this check's business
  }
  const want = resolveGit(context, includes, strings(context.packers).includes(GIT_DIFF_PACKER));
  return want.staged || want.changedFiles;
}

/** The range as given, with short ids; full ids given (a workflow's ranges) are shown short only, not twice. */
function shownRange(review: ReviewRange): string {
  const short = `${review.base.slice(0, 7)}..${review.head.slice(0, 7)}`;
  return /^[0-9a-f]{40,64}\.\.\.?[0-9a-f]{40,64}$/.test(review.spec) ? short : `${review.spec} (${short})`;
}

export function nothingToReviewNotice(role: Role, built: BuiltPrompt, review: ReviewRange | null): string | null {
  if (!wantsGit(role)) return null;
  if (review?.empty) return `nothing to review: the range ${shownRange(review)} holds no commits`;
  if (built.stats.parts.some((p) => (p.key === 'git_diff' || p.key === 'changed_files') && p.tokens > 0)) return null;
  if (review) return `nothing to review: the range ${shownRange(review)} changes no file`;
  return 'nothing to review: the staged diff is empty (nothing is staged); stage the change, or give --review <base>..<head> or a branch';
}

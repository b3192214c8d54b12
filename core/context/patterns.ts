/**
 * Include patterns → what to do (seed `_resolve_patterns`): sentinels become directives,
 * `$TARGET` is dropped (the targets are packed as target files already), `$TARGET_IMPORTS`
 * asks for the imports part, other `$VARIABLES` are dropped with a notice, and every remaining
 * pattern is checked to stay inside the repository. The git directives and options resolve
 * here, once: the git-diff packer reads the result, never the sentinels.
 */
import type { GitWanted } from '../plugin-api/contracts.ts';
import type { RoleContext } from '../roles/role.ts';
import { SENTINEL_CHANGED_FILES, SENTINEL_GIT_DIFF, VAR_TARGET, VAR_TARGET_IMPORTS } from '../files/constants.ts';
import { checkPattern } from './path-safety.ts';

export interface ResolvedIncludes {
  /** File globs for the packers. */
  patterns: string[];
  gitDiff: boolean;
  changedFiles: boolean;
  targetImports: boolean;
  /** Unknown `$VARIABLES`, dropped. */
  unknownVariables: string[];
}

export function resolvePatterns(patterns: readonly string[]): ResolvedIncludes {
  const out: ResolvedIncludes = { patterns: [], gitDiff: false, changedFiles: false, targetImports: false, unknownVariables: [] };
  for (const pattern of patterns) {
    if (pattern === SENTINEL_GIT_DIFF) out.gitDiff = true;
    else if (pattern === SENTINEL_CHANGED_FILES) out.changedFiles = true;
    else if (pattern === VAR_TARGET_IMPORTS) out.targetImports = true;
    else if (pattern === VAR_TARGET) continue;
    else if (pattern.startsWith('$')) out.unknownVariables.push(pattern);
    else out.patterns.push(checkPattern(pattern));
  }
  out.patterns = [...new Set(out.patterns)];
  return out;
}

/**
 * The git parts a context asks for: the sentinels or their options. The git-diff packer
 * chosen in `packers` with none of them gives the staged diff, unless `git_diff: false`.
 */
export function resolveGit(context: RoleContext, includes: ResolvedIncludes, gitDiffChosen: boolean): GitWanted {
  const want: GitWanted = {
    staged: context.git_diff === true || includes.gitDiff,
    unstaged: context.git_diff_unstaged === true,
    changedFiles: context.changed_files === true || includes.changedFiles,
  };
  if (gitDiffChosen && !want.staged && !want.unstaged && !want.changedFiles && context.git_diff !== false) want.staged = true;
  return want;
}

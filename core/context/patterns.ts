/**
 * Include patterns → what to do (seed `_resolve_patterns`): sentinels become directives,
 * `$TARGET` expands to the targets unless they are packed already (skip_targets),
 * `$TARGET_IMPORTS` asks for the imports part, other `$VARIABLES` are dropped with a notice,
 * and every remaining pattern is checked to stay inside the repository.
 */
import { SENTINEL_CHANGED_FILES, SENTINEL_GIT_DIFF, VAR_TARGET, VAR_TARGET_IMPORTS } from './constants.ts';
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

export function resolvePatterns(patterns: readonly string[], targets: readonly string[], skipTargets: boolean): ResolvedIncludes {
  const out: ResolvedIncludes = { patterns: [], gitDiff: false, changedFiles: false, targetImports: false, unknownVariables: [] };
  for (const pattern of patterns) {
    if (pattern === SENTINEL_GIT_DIFF) out.gitDiff = true;
    else if (pattern === SENTINEL_CHANGED_FILES) out.changedFiles = true;
    else if (pattern === VAR_TARGET) {
      if (!skipTargets) out.patterns.push(...targets);
    } else if (pattern === VAR_TARGET_IMPORTS) out.targetImports = true;
    else if (pattern.startsWith('$')) out.unknownVariables.push(pattern);
    else out.patterns.push(checkPattern(pattern));
  }
  out.patterns = [...new Set(out.patterns)];
  return out;
}

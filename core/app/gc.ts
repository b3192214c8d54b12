/** The gc use case: old run folders, worktrees of runs that are over, merged supervisor/* branches. */
import { errors } from '../errors.ts';
import type { GcReport } from '../runs/gc.ts';
import { parseAge } from '../text/age.ts';
import type { AppDeps } from './deps.ts';

export const DEFAULT_GC_AGE = '30d';

export interface GcInput {
  /** An age: 12h, 7d, 2w (default 30d). */
  olderThan?: string;
  dryRun: boolean;
  includeUnmerged: boolean;
  includeWorkflows: boolean;
  /** Also remove worktrees a run kept on purpose (run --keep-worktree). */
  includeKept?: boolean;
}

export async function gc(input: GcInput, deps: AppDeps, now: Date = new Date()): Promise<GcReport> {
  const age = input.olderThan ?? DEFAULT_GC_AGE;
  const olderThanMs = parseAge(age);
  if (olderThanMs === null) throw errors.usage(`--older-than expects an age such as 12h, 7d or 2w, got "${age}"`);
  const { collectGarbage } = await import('../runs/gc.ts');
  return collectGarbage({ repoRoot: deps.repoRoot, olderThanMs, now, dryRun: input.dryRun, includeUnmerged: input.includeUnmerged, includeWorkflows: input.includeWorkflows, includeKept: input.includeKept === true, env: deps.env });
}

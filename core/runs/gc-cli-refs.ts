/**
 * A CLI's own refs in the user's repository that our runs created (cline's checkpoints,
 * `refs/cline/checkpoints/<session>/<n>`): the checkout guard records each ref that appeared
 * during a run, with its object, as a `refs_created` event; `gc` deletes exactly those, by
 * compare-and-swap, once the run is over. A ref no run of ours recorded (a person's own
 * checkpoint), or one that moved since, is never touched (SECURITY I1).
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import * as v from 'valibot';
import { git, type GitEnv } from '../git/git.ts';
import { isRunId } from '../run/run-id.ts';
import { readEvents } from '../run/run-log.ts';
import { statePaths } from '../state-dir.ts';

/** Refs a CLI makes for itself that `gc` may remove when a run of ours made them. */
const CLI_REF_PREFIXES = ['refs/cline/checkpoints/'];

const RecordedRefs = v.object({
  kind: v.literal('refs_created'),
  refs: v.array(v.object({ ref: v.pipe(v.string(), v.regex(/^refs\/[^\s\0]+$/)), oid: v.pipe(v.string(), v.regex(/^[0-9a-f]{40}(?:[0-9a-f]{24})?$/)) })),
});

export interface CliRefItem {
  kind: 'ref';
  name: string;
  reason: string;
}

export interface CliRefOptions {
  repoRoot: string;
  dryRun: boolean;
  env?: GitEnv;
  /** A run still going keeps its refs (its CLI may still use them). */
  runIsLive: (runDir: string) => boolean;
}

/** Ref → [object, run id] for each CLI ref a finished run of ours recorded creating. */
function recordedRefs(opts: CliRefOptions): Map<string, { oid: string; runId: string }> {
  const { runs } = statePaths(opts.repoRoot);
  const found = new Map<string, { oid: string; runId: string }>();
  let names: string[];
  try {
    names = readdirSync(runs).filter(isRunId).sort();
  } catch {
    return found;
  }
  for (const runId of names) {
    const runDir = join(runs, runId);
    if (opts.runIsLive(runDir)) continue;
    for (const event of readEvents(runDir)) {
      const parsed = v.safeParse(RecordedRefs, event);
      if (!parsed.success) continue;
      for (const { ref, oid } of parsed.output.refs) {
        if (CLI_REF_PREFIXES.some((prefix) => ref.startsWith(prefix))) found.set(ref, { oid, runId });
      }
    }
  }
  return found;
}

/** Deletes the CLI refs our finished runs created and that still name the object they recorded. */
export async function removeCliRefs(opts: CliRefOptions): Promise<{ removed: CliRefItem[]; kept: CliRefItem[] }> {
  const removed: CliRefItem[] = [];
  const kept: CliRefItem[] = [];
  const recorded = recordedRefs(opts);
  if (!recorded.size) return { removed, kept };
  const listed = await git(opts.repoRoot, ['for-each-ref', '--format=%(objectname) %(refname)', ...CLI_REF_PREFIXES], opts.env);
  if (!listed.ok) return { removed, kept };
  const current = new Map(listed.stdout.split('\n').filter(Boolean).map((line) => [line.slice(line.indexOf(' ') + 1), line.slice(0, line.indexOf(' '))] as const));
  for (const [ref, { oid, runId }] of recorded) {
    const now = current.get(ref);
    if (now === undefined) continue; // gone already
    if (now !== oid) {
      kept.push({ kind: 'ref', name: ref, reason: `it moved since run ${runId} created it` });
      continue;
    }
    if (!opts.dryRun) {
      const deleted = await git(opts.repoRoot, ['update-ref', '-m', 'supervisor gc', '-d', ref, oid], opts.env);
      if (!deleted.ok) {
        kept.push({ kind: 'ref', name: ref, reason: `git could not delete it: ${deleted.stderr.trim()}` });
        continue;
      }
    }
    removed.push({ kind: 'ref', name: ref, reason: `the CLI of run ${runId} created it in your repository` });
  }
  return { removed, kept };
}

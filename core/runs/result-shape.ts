/**
 * The shape a `result.json` must have to be read back by `runs list` / `runs show`: the file is
 * on disk where anything may have changed it (a crash, a hand edit, an older or newer version),
 * so it is untrusted until it passes.
 */
import * as v from 'valibot';
import type { RunResult } from '../run/result.ts';

const count = v.nullable(v.number());

const resultShape = v.looseObject({
  run_id: v.string(),
  role: v.string(),
  cli: v.string(),
  status: v.string(),
  exit_code: v.number(),
  output: v.nullable(v.record(v.string(), v.unknown())),
  issues: v.array(v.string()),
  metrics: v.looseObject({
    attempts: v.number(),
    duration_ms: v.number(),
    input_tokens: count,
    output_tokens: count,
    cached_tokens: v.optional(count),
    cost_usd: count,
    cost_known: v.boolean(),
    cost_source: v.optional(v.nullable(v.picklist(['cli', 'price-table']))),
    max_cost_usd: v.optional(count),
  }),
  git_range: v.nullable(v.string()),
  branch: v.nullable(v.string()),
  files_changed: v.nullable(v.array(v.string())),
  worktree: v.looseObject({ mode: v.string(), path: v.string(), kept: v.boolean() }),
  run_dir: v.string(),
  started_at: v.string(),
});

/** The result, or the first problem found ("metrics: expected Object but received undefined"). */
export function checkResult(value: unknown): { ok: true; result: RunResult } | { ok: false; problem: string } {
  const outcome = v.safeParse(resultShape, value);
  if (outcome.success) return { ok: true, result: value as RunResult };
  const issue = outcome.issues[0];
  return { ok: false, problem: `${v.getDotPath(issue) ?? '(root)'}: ${issue.message}` };
}

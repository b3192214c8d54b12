/**
 * The shapes the engine's own state files must have when read back (`plan.json`, `result.json`,
 * each line of `events.jsonl` is checked by events.ts). The files are ours, but anything may have written them since:
 * a full disk, a kill at the wrong moment, a person's editor, a CLI. What the engine relies on
 * is checked; fields it does not know are kept (other parts of the engine add their own).
 */
import * as v from 'valibot';

const strings = v.array(v.string());
const nullableText = v.nullable(v.string());
const count = v.pipe(v.number(), v.integer(), v.minValue(0));

const taskShape = v.looseObject({
  id: v.string(),
  title: v.string(),
  task: v.string(),
  files: strings,
  depends_on: strings,
  worker: v.string(),
  reviewers: strings,
  cli: nullableText,
  model: nullableText,
  gates: strings,
  max_rounds: v.pipe(v.number(), v.integer(), v.minValue(1)),
});

export const planShape = v.looseObject({
  id: v.string(),
  name: v.string(),
  source: v.looseObject({ file: v.string(), reader: v.string() }),
  base: nullableText,
  jobs: v.nullable(count),
  gates: strings,
  max_cost_usd: v.nullable(v.number()),
  defaults: v.looseObject({ worker: v.string(), reviewers: strings, cli: nullableText, model: nullableText, max_rounds: count }),
  models: v.record(v.string(), v.string()),
  tasks: v.array(taskShape),
});

export const resultShape = v.looseObject({
  workflow_id: v.string(),
  name: v.string(),
  status: v.string(),
  exit_code: v.number(),
  branch: v.string(),
  git_range: v.string(),
  tasks: v.array(v.looseObject({ id: v.string(), status: v.string(), issues: strings })),
  notices: strings,
  started_at: v.string(),
  finished_at: v.string(),
});

/** "at /tasks/2/id: Invalid type: Expected string but received undefined", for the first issue. */
export function describeIssue(issues: readonly v.BaseIssue<unknown>[]): string {
  const issue = issues[0];
  if (!issue) return 'not the expected shape';
  const path = (issue.path ?? []).map((item) => `/${String(item.key)}`).join('');
  return `${path ? `at ${path}: ` : ''}${issue.message}`;
}

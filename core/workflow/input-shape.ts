/**
 * The shape of what a plan reader returns (a WorkflowInput), checked with valibot: a reader is
 * a plugin, so its answer is untrusted. Unknown fields are refused with a "did you mean".
 * Meaning (ids, dependencies, roles) is checked afterwards, in check-workflow.ts.
 */
import * as v from 'valibot';
import { escapePointerToken } from '../json-schema.ts';
import { suggest } from '../text/suggest.ts';
import type { WorkflowInput } from '../plugin-api/workflow-model.ts';
import type { WorkflowProblem } from './errors.ts';

const text = v.string('must be a string');
const strings = v.array(v.string('must be a string'), 'must be a list of strings');
const nullableText = v.nullable(v.string('must be a string or null'));
// Bounds as the CLI's --max-rounds and --jobs: a huge number is refused here, not met later as a crash.
const rounds = v.pipe(v.number('must be a whole number'), v.integer('must be a whole number'), v.minValue(1, 'must be at least 1'), v.maxValue(50, 'must be at most 50'));
const jobs = v.pipe(v.number('must be a whole number'), v.integer('must be a whole number'), v.minValue(1, 'must be at least 1'), v.maxValue(64, 'must be at most 64'));

const defaultsShape = v.strictObject({
  worker: v.optional(text),
  reviewers: v.optional(strings),
  cli: v.optional(nullableText),
  model: v.optional(nullableText),
  max_rounds: v.optional(rounds),
  setup: v.optional(strings),
  copy: v.optional(strings),
  allowed_commands: v.optional(strings),
  approve: v.optional(v.boolean('must be true or false')),
}, 'must be a mapping');

const taskShape = v.strictObject({
  id: text,
  title: text,
  task: text,
  files: v.optional(strings),
  depends_on: v.optional(strings),
  worker: v.optional(text),
  reviewers: v.optional(strings),
  cli: v.optional(nullableText),
  model: v.optional(nullableText),
  gates: v.optional(strings),
  setup: v.optional(strings),
  copy: v.optional(strings),
  allowed_commands: v.optional(strings),
  max_rounds: v.optional(rounds),
  approve: v.optional(v.boolean('must be true or false')),
}, 'must be a mapping');

const workflowShape = v.strictObject({
  id: v.optional(text),
  name: v.optional(text),
  base: v.optional(nullableText),
  jobs: v.optional(v.nullable(jobs)),
  gates: v.optional(strings),
  gates_on: v.optional(v.picklist(['merge', 'end'], 'must be merge or end')),
  max_cost_usd: v.optional(v.nullable(v.pipe(v.number('must be a number or null'), v.gtValue(0, 'must be more than 0'), v.maxValue(1_000_000, 'must be at most 1000000')))),
  setup: v.optional(strings),
  copy: v.optional(strings),
  setup_once: v.optional(v.boolean('must be true or false')),
  setup_timeout: v.optional(v.nullable(v.pipe(v.number('must be a number of seconds or null'), v.gtValue(0, 'must be more than 0')))),
  defaults: v.optional(defaultsShape),
  models: v.optional(v.record(v.string(), v.string('must be the name of an adapter'), 'must be a mapping of model patterns to adapter names')),
  merge: v.optional(v.picklist(['merge', 'squash'], 'must be merge or squash')),
  on_event: v.optional(strings),
  tasks: v.array(taskShape, 'must be a list of tasks'),
}, 'must be a mapping');

/** Field names each strict object knows, by the pointer pattern of that object. */
function knownFields(path: (string | number)[]): string[] {
  const shape = path[0] === 'tasks' && path.length === 3 ? taskShape : path[0] === 'defaults' && path.length === 2 ? defaultsShape : workflowShape;
  return Object.keys(shape.entries);
}

function taskId(value: unknown, path: (string | number)[]): string | undefined {
  if (path[0] !== 'tasks' || typeof path[1] !== 'number') return undefined;
  const id = (value as { tasks?: { id?: unknown }[] }).tasks?.[path[1]]?.id;
  return typeof id === 'string' ? id : undefined;
}

/** The problems of a reader's answer; empty when it has the WorkflowInput shape. */
export function inputShapeProblems(value: unknown): WorkflowProblem[] {
  const result = v.safeParse(workflowShape, value);
  if (result.success) return [];
  return result.issues.map((issue) => {
    const path = (issue.path ?? []).map((item) => item.key as string | number);
    const pointer = path.map((key) => `/${escapePointerToken(String(key))}`).join('');
    const task = taskId(value, path);
    if (issue.type === 'strict_object' && issue.expected === 'never') {
      const field = String(path[path.length - 1]);
      return { code: 'WORKFLOW_INVALID', pointer, task, message: `unknown field "${field}" (not allowed here)${suggest(field, knownFields(path))}` };
    }
    const missing = issue.received === 'undefined';
    return { code: 'WORKFLOW_INVALID', pointer, task, message: missing ? `missing: ${String(path[path.length - 1])} is required` : `${issue.message} (got ${issue.received})` };
  });
}

export function isWorkflowInput(value: unknown): value is WorkflowInput {
  return v.is(workflowShape, value);
}

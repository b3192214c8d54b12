/**
 * A task's state on the remote, `refs/supervisor/state/<wf>/<task>`: a commit (its parent the
 * ref's previous commit) whose tree holds `task.json` and `events.jsonl` (the task's events in
 * the event record's schema, every attempt's). Written only by the jobs of that task, by
 * compare-and-swap. Read back as untrusted data (SECURITY I7): parsed with valibot, a bad file
 * is REMOTE_STATE_INVALID naming the ref and field; nothing in it is a path we act on.
 */
import * as v from 'valibot';
import { remoteErrors } from '../../git/remote-errors.ts';
import { commitFiles, readFileAt, type RemoteGit } from '../../git/remote.ts';
import { parseEvent, type WorkflowEvent } from '../engine/events.ts';
import { parseStateJson } from './state-json.ts';

export const REMOTE_TASK_STATUSES = ['running', 'integrated', 'gaps', 'failed', 'awaiting_approval', 'interrupted'] as const;
export type RemoteTaskStatus = (typeof REMOTE_TASK_STATUSES)[number];

const sha = v.pipe(v.string(), v.regex(/^[0-9a-f]{40}([0-9a-f]{24})?$/));
const usd = v.pipe(v.number(), v.minValue(0), v.maxValue(1e9));
const id = v.pipe(v.string(), v.regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/));

export const taskStateSchema = v.strictObject({
  workflow_id: id,
  task_id: id,
  status: v.picklist(REMOTE_TASK_STATUSES),
  rounds: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(10000)),
  cost_usd: usd,
  cost_known: v.boolean(),
  integrated_commit: v.nullable(sha),
  attempt: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(1e6)),
  updated_at: v.pipe(v.string(), v.isoTimestamp()),
  /** Compare-and-swap pushes of the integration branch that lost their lease in this attempt. */
  cas_retries: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
});
export type TaskStateFile = v.InferOutput<typeof taskStateSchema>;

export interface TaskStateRead {
  /** The state commit (the ref's value), the lease of the next write. */
  commit: string;
  task: TaskStateFile;
  events: WorkflowEvent[];
}

const MAX_EVENTS = 100_000;

/** The first problem of a valibot parse as "field: message". */
/** `task.json` and `events.jsonl` of a state commit, checked; `ref` names it in errors. */
export async function readTaskState(ctx: Pick<RemoteGit, 'repoRoot' | 'env'>, commit: string, ref: string, expect: { workflow: string; task: string }): Promise<TaskStateRead> {
  const [json, lines] = await Promise.all([readFileAt(ctx, commit, 'task.json', ref), readFileAt(ctx, commit, 'events.jsonl', ref)]);
  const task = parseStateJson(json, taskStateSchema, 'task.json', ref);
  if (task.workflow_id !== expect.workflow || task.task_id !== expect.task) throw remoteErrors.stateInvalid(ref, 'task.json workflow_id/task_id', `name ${task.workflow_id}/${task.task_id}, not ${expect.workflow}/${expect.task}`);
  return { commit, task, events: parseEvents(lines ?? '', ref) };
}

export function parseEvents(text: string, ref: string): WorkflowEvent[] {
  const rows = text.split('\n').filter((l) => l.trim());
  if (rows.length > MAX_EVENTS) throw remoteErrors.stateInvalid(ref, 'events.jsonl', `holds ${rows.length} lines (more than ${MAX_EVENTS})`);
  return rows.map((row, n) => {
    let value: unknown;
    try {
      value = JSON.parse(row);
    } catch {
      throw remoteErrors.stateInvalid(ref, `events.jsonl line ${n + 1}`, 'is not JSON');
    }
    const parsed = parseEvent(value);
    if (!parsed.ok) throw remoteErrors.stateInvalid(ref, `events.jsonl line ${n + 1}`, parsed.problem);
    return parsed.event;
  });
}

/** A new state commit on `parent` (null: the first), not pushed yet. */
export function writeTaskState(ctx: Pick<RemoteGit, 'repoRoot' | 'env'>, task: TaskStateFile, events: readonly WorkflowEvent[], parent: string | null): Promise<string> {
  const checked = v.parse(taskStateSchema, task);
  const body = events.map((e) => `${JSON.stringify(e)}\n`).join('');
  return commitFiles(ctx, { 'events.jsonl': body, 'task.json': `${JSON.stringify(checked, null, 2)}\n` }, parent, `supervisor: ${task.workflow_id}/${task.task_id} ${task.status} (attempt ${task.attempt})`);
}

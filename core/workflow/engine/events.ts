/**
 * The workflow's one record, `events.jsonl`: one valibot schema per event kind, the union of
 * them, and the type the engine writes and reads back. Every append is checked against its
 * kind's schema (a write the engine cannot read back is a bug, found at once); every line read
 * back is parsed by the same schema (a line that is not one is WORKFLOW_CORRUPT). Fields that
 * older state folders may lack are optional.
 */
import * as v from 'valibot';

export const TASK_STATES = ['pending', 'running', 'awaiting_approval', 'integrating', 'integrated', 'gaps', 'error', 'blocked', 'skipped'] as const;
export type TaskState = (typeof TASK_STATES)[number];

const text = v.string();
const sha = v.pipe(v.string(), v.regex(/^[0-9a-f]{40,64}$/));
const nullableText = v.nullable(v.string());
const count = v.pipe(v.number(), v.integer(), v.minValue(0));
const nullableNumber = v.nullable(v.number());
const strings = v.array(v.string());
const exitCode = v.nullable(v.number());
const ts = { ts: text };
/** Where the workflow's gates ran: a task's candidate merge, or the integration branch's tip. */
const gatesWhere = { tip: text, on: v.optional(v.picklist(['candidate', 'integration'])), task: v.optional(text) };
const cliChoice = v.object({ all: v.optional(text), byRole: v.record(v.string(), v.string()) });

/** Every kind's schema, by kind: what each event carries. */
export const EVENT_SCHEMAS = {
  workflow_started: v.object({
    ...ts,
    kind: v.literal('workflow_started'),
    // Resume needs the base; the rest is what this version writes (a record may predate it).
    workflow_id: v.optional(text),
    file: v.optional(text),
    base: sha,
    branch: v.optional(text),
    jobs: v.optional(count),
    max_cost_usd: v.optional(nullableNumber),
    min_run_usd: v.optional(nullableNumber),
    quota_wait_ms: v.optional(nullableNumber),
    max_rounds: v.optional(v.nullable(count)),
    cli: v.optional(v.nullable(cliChoice)),
    pid: v.optional(count),
  }),
  workflow_resumed: v.object({
    ...ts,
    kind: v.literal('workflow_resumed'),
    workflow_id: text,
    pid: count,
    jobs: v.optional(count),
    max_cost_usd: v.optional(nullableNumber),
    min_run_usd: v.optional(nullableNumber),
    quota_wait_ms: v.optional(nullableNumber),
    /** `workflow retry`: the tasks named (none: every retryable one) and whether they start over. */
    retry: v.optional(v.boolean()),
    tasks: v.optional(strings),
    fresh: v.optional(v.boolean()),
  }),
  task_state: v.object({
    ...ts,
    kind: v.literal('task_state'),
    task: text,
    state: v.picklist(TASK_STATES),
    round: count,
    role: v.optional(text),
    reason: v.optional(text),
    issues: v.optional(strings),
    /** `workflow retry` reopened the task: its rounds count anew. */
    retry: v.optional(v.boolean()),
  }),
  worktree_ready: v.object({ ...ts, kind: v.literal('worktree_ready'), task: text, path: text, created: v.boolean() }),
  /** A set-up step (copied, command_started, command_finished) or a sandbox event during set-up. */
  setup: v.looseObject({ ...ts, kind: v.literal('setup'), task: text, step: text, path: text }),
  run_started: v.object({ ...ts, kind: v.literal('run_started'), task: text, role: text, round: count, run_id: text, cli: v.optional(nullableText) }),
  run_finished: v.object({
    ...ts,
    kind: v.literal('run_finished'),
    task: text,
    role: text,
    round: count,
    /** Null: the run could not start (`error` says why). */
    run_id: nullableText,
    cli: v.optional(nullableText),
    status: text,
    exit_code: v.number(),
    error: v.optional(text),
    cost_usd: v.optional(nullableNumber),
    cost_known: v.optional(v.boolean()),
    /** `cli`: the CLI reported the cost; `price-table`: computed from its tokens (core/pricing). */
    cost_source: v.optional(v.nullable(v.picklist(['cli', 'price-table']))),
    input_tokens: v.optional(nullableNumber),
    output_tokens: v.optional(nullableNumber),
    duration_ms: v.optional(v.number()),
    started_at: v.optional(text),
    finished_at: v.optional(text),
    git_range: v.optional(nullableText),
    issues: v.optional(strings),
    failure: v.optional(v.looseObject({ class: text, detail: text })),
  }),
  /** `cas_retries`: pushes to a shared remote refused by their lease before this one landed (`workflow task --remote`). */
  merged: v.object({ ...ts, kind: v.literal('merged'), task: text, head: text, tip: text, fast_forward: v.optional(v.boolean()), gated: v.optional(v.boolean()), cas_retries: v.optional(count) }),
  conflict: v.object({ ...ts, kind: v.literal('conflict'), task: text, files: strings, tip: text }),
  gates_started: v.object({ ...ts, kind: v.literal('gates_started'), ...gatesWhere }),
  gates: v.object({ ...ts, kind: v.literal('gates'), ...gatesWhere, command: text, passed: v.boolean(), exit_code: exitCode, output_tail: v.optional(text) }),
  gates_passed: v.object({ ...ts, kind: v.literal('gates_passed'), ...gatesWhere }),
  notice: v.object({ ...ts, kind: v.literal('notice'), message: text }),
  slot_set_aside: v.object({
    ...ts,
    kind: v.literal('slot_set_aside'),
    task: text,
    path: text,
    reason: v.picklist(['workspace_broken', 'uncommitted_work']),
    problem: v.optional(text),
    left: v.optional(text),
  }),
  /** The worktree slots a command left for the next (set-up once): where, its admin folder, and what set-up ran and made there. */
  slots_kept: v.object({
    ...ts,
    kind: v.literal('slots_kept'),
    slots: v.array(v.object({ path: text, git_dir: text, setup_key: nullableText, exclude: strings, gates: v.boolean() })),
  }),
  integration_moved: v.object({ ...ts, kind: v.literal('integration_moved'), branch: text, found: nullableText, restored: text, record: text }),
  /** A person's decision on a task awaiting approval; `round`: the round it was about. */
  approval: v.object({ ...ts, kind: v.literal('approval'), task: text, decision: v.picklist(['approved', 'rejected']), by: text, issues: strings, round: v.optional(count) }),
  handed_on: v.object({ ...ts, kind: v.literal('handed_on'), into: text, action: text, commit: text, from: nullableText, tip: text }),
  quota_pause: v.object({ ...ts, kind: v.literal('quota_pause'), task: text, role: text, run_id: text, until: text, wait_ms: v.number(), detail: text }),
  quota_resumed: v.object({ ...ts, kind: v.literal('quota_resumed'), waited_ms: v.number() }),
  workflow_finished: v.object({ ...ts, kind: v.literal('workflow_finished'), status: text, exit_code: v.number(), tip: text, worktree_slots: v.optional(count) }),
} as const;

export type EventKind = keyof typeof EVENT_SCHEMAS;
export const EVENT_KINDS = Object.keys(EVENT_SCHEMAS) as EventKind[];

export const eventSchema = v.variant('kind', Object.values(EVENT_SCHEMAS) as unknown as [(typeof EVENT_SCHEMAS)[EventKind]]);

/** One event of `events.jsonl`, as written and as read back. */
export type WorkflowEvent = { [K in EventKind]: v.InferOutput<(typeof EVENT_SCHEMAS)[K]> }[EventKind];
/** The event of one kind. */
export type EventOf<K extends EventKind> = Extract<WorkflowEvent, { kind: K }>;
/** What an append passes: the event without its time and kind. */
export type EventData<K extends EventKind> = Omit<v.InferInput<(typeof EVENT_SCHEMAS)[K]>, 'ts' | 'kind'>;

/** The event checked against its kind's schema, or the first problem ("at /round: ..."). */
export function parseEvent(value: unknown): { ok: true; event: WorkflowEvent } | { ok: false; problem: string } {
  const parsed = v.safeParse(eventSchema, value);
  if (parsed.success) return { ok: true, event: parsed.output as WorkflowEvent };
  const issue = parsed.issues[0];
  const path = (issue.path ?? []).map((item) => `/${String(item.key)}`).join('');
  const kind = typeof value === 'object' && value !== null && 'kind' in value ? String((value as { kind: unknown }).kind) : '?';
  return { ok: false, problem: `${kind} event${path ? ` at ${path}` : ''}: ${issue.message}` };
}

/** The fields each kind carries (for the README's table and its test): name → optional. */
export function eventFields(kind: EventKind): { name: string; optional: boolean }[] {
  const entries = (EVENT_SCHEMAS[kind] as unknown as { entries: Record<string, { type: string }> }).entries;
  return Object.entries(entries)
    .filter(([name]) => name !== 'ts' && name !== 'kind')
    .map(([name, schema]) => ({ name, optional: schema.type === 'optional' }));
}

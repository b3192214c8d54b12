/**
 * The workflow's state as its event record says it is: one reducer, `applyEvent`, used live
 * (every append is applied as it is written) and on resume (the record replayed), and the only
 * source of status, result, show, logs, progress and MCP's views. A person's decision lasts
 * until it is acted on: an approval until the task is merged or a worker round changes the
 * work, a rejection until the worker's next round starts, so a kill in between loses neither.
 */
import type { CostSource } from '../../pricing/price-metrics.ts';
import { fromMicros, toMicros } from '../../money.ts';
import type { Workflow } from '../../plugin-api/workflow-model.ts';
import type { CliChoice } from '../run-plan.ts';
import type { EventOf, TaskState, WorkflowEvent } from './events.ts';

/** A run as the record holds it (its run_finished event): recorded once. */
export interface RunEntry {
  run_id: string;
  role: string;
  round: number;
  cli: string | null;
  status: string;
  exit_code: number;
  cost_usd: number | null;
  cost_known: boolean;
  cost_source: CostSource | null;
  input_tokens: number | null;
  output_tokens: number | null;
  duration_ms: number;
  started_at: string;
  finished_at: string;
  git_range: string | null;
  issues: string[];
}

/** A person's decision not acted on yet; `round`: the round it was about. */
export interface Decision {
  decision: 'approved' | 'rejected';
  by: string;
  issues: string[];
  round: number;
}

export interface CurrentRun {
  role: string;
  /** Null between the task's `running` state and its run's first event (set-up has none). */
  run_id: string | null;
  round: number;
  cli: string | null;
  started_at: string;
}

export interface TaskFold {
  id: string;
  worker: string;
  status: TaskState;
  /** The round of the task's last state change. */
  round: number;
  /** The highest round it reached. */
  rounds: number;
  issues: string[];
  why: string | null;
  current: CurrentRun | null;
  runs: RunEntry[];
  /** Where the runs of the task's last (re)start begin in `runs` (a retry counts rounds anew). */
  runsSince: number;
  decision: Decision | null;
  /** The last approval a later worker round made stale (for "asked again" messages). */
  staleApproval: { by: string; round: number } | null;
  merged: { head: string; tip: string } | null;
  conflicts: { files: string[]; tip: string; at: string }[];
  approvals: { decision: string; by: string; issues: string[]; at: string }[];
}

export interface Settings {
  base: string | null;
  branch: string | null;
  file: string | null;
  jobs: number | null;
  max_cost_usd: number | null;
  min_run_usd: number | null;
  quota_wait_ms: number | null;
  max_rounds: number | null;
  cli: CliChoice | null;
}

export interface GateRun {
  tip: string;
  on: 'candidate' | 'integration';
  task: string | null;
  command: string;
  passed: boolean;
  exit_code: number | null;
  output_tail: string | null;
}

export interface RecordState {
  started_at: string | null;
  settings: Settings;
  tasks: Map<string, TaskFold>;
  /** The last verdict on the integration branch, with the tip it was about. */
  gates: { passed: boolean | null; failed: string | null; tip?: string };
  gateRuns: GateRun[];
  retries: { at: string; tasks: string[]; fresh: boolean }[];
  /** How many times the workflow was resumed or retried. */
  resumes: number;
  /** The last start, resume or retry was followed by its workflow_finished. */
  finished: boolean;
  /** The gates running now: on what (null: none). */
  gatesRunning: { tip: string; on: string; task: string | null } | null;
  quotaPausedUntil: string | null;
}

function taskFold(id: string, worker: string): TaskFold {
  return { id, worker, status: 'pending', round: 0, rounds: 0, issues: [], why: null, current: null, runs: [], runsSince: 0, decision: null, staleApproval: null, merged: null, conflicts: [], approvals: [] };
}

/** The state before any event: every task of the plan pending. */
export function initialState(plan: Pick<Workflow, 'tasks'>): RecordState {
  return {
    started_at: null,
    settings: { base: null, branch: null, file: null, jobs: null, max_cost_usd: null, min_run_usd: null, quota_wait_ms: null, max_rounds: null, cli: null },
    tasks: new Map(plan.tasks.map((t) => [t.id, taskFold(t.id, t.worker)])),
    gates: { passed: null, failed: null },
    gateRuns: [],
    retries: [],
    resumes: 0,
    finished: false,
    gatesRunning: null,
    quotaPausedUntil: null,
  };
}

const FINAL: readonly TaskState[] = ['integrated', 'gaps', 'error', 'blocked', 'skipped'];

function runEntry(e: EventOf<'run_finished'>, runId: string, cli: string | null): RunEntry {
  const cost = e.cost_usd ?? null;
  return {
    run_id: runId,
    role: e.role,
    round: e.round,
    cli: e.cli ?? cli,
    status: e.status,
    exit_code: e.exit_code,
    cost_usd: cost === null ? null : fromMicros(toMicros(cost)),
    cost_known: e.cost_known !== false,
    cost_source: e.cost_source ?? (cost === null ? null : 'cli'),
    input_tokens: e.input_tokens ?? null,
    output_tokens: e.output_tokens ?? null,
    duration_ms: e.duration_ms ?? 0,
    started_at: e.started_at ?? e.ts,
    finished_at: e.finished_at ?? e.ts,
    git_range: e.git_range ?? null,
    issues: e.issues ?? [],
  };
}

function applyTaskState(task: TaskFold, e: EventOf<'task_state'>): void {
  task.status = e.state;
  task.round = e.round;
  task.rounds = Math.max(task.rounds, e.round);
  task.issues = e.issues ?? [];
  task.why = e.reason ?? null;
  if (e.state !== 'running') task.current = null;
  else if (e.role && task.current?.role !== e.role) task.current = { role: e.role, run_id: null, round: e.round, cli: null, started_at: e.ts };
  if (e.retry) {
    task.runsSince = task.runs.length;
    task.decision = null;
    task.staleApproval = null;
  }
  // A decision is acted on once the task ends (merged, or failed); until then it holds.
  if (FINAL.includes(e.state)) task.decision = null;
}

function applyTaskEvent(task: TaskFold, e: WorkflowEvent): void {
  switch (e.kind) {
    case 'task_state':
      return applyTaskState(task, e);
    case 'approval':
      task.decision = { decision: e.decision, by: e.by, issues: e.issues, round: e.round ?? task.round };
      task.approvals.push({ decision: e.decision, by: e.by, issues: e.issues, at: e.ts });
      return;
    case 'run_started':
      task.current = { role: e.role, run_id: e.run_id, round: e.round, cli: e.cli ?? null, started_at: e.ts };
      // The worker's next round changes the work: an approval is stale, a rejection is consumed.
      if (e.role === task.worker && task.decision) {
        if (task.decision.decision === 'approved') task.staleApproval = { by: task.decision.by, round: task.decision.round };
        task.decision = null;
      }
      return;
    case 'run_finished': {
      const started = task.current;
      if (started && (e.run_id === null || started.run_id === e.run_id)) task.current = null;
      if (e.run_id !== null) task.runs.push(runEntry(e, e.run_id, started?.run_id === e.run_id ? started.cli : null));
      return;
    }
    case 'merged':
      task.merged = { head: e.head, tip: e.tip };
      return;
    case 'conflict':
      task.conflicts.push({ files: e.files, tip: e.tip, at: e.ts });
      return;
  }
}

function applyGates(state: RecordState, e: EventOf<'gates_started' | 'gates' | 'gates_passed'>): void {
  if (e.kind === 'gates_started') {
    state.gatesRunning = { tip: e.tip, on: e.on ?? 'integration', task: e.task ?? null };
    return;
  }
  if (e.kind === 'gates_passed') {
    state.gatesRunning = null;
    state.gates = { passed: true, failed: null, tip: e.tip };
    return;
  }
  state.gateRuns.push({ tip: e.tip, on: e.on ?? 'integration', task: e.task ?? null, command: e.command, passed: e.passed, exit_code: e.exit_code, output_tail: e.output_tail ?? null });
  if (!e.passed) state.gatesRunning = null;
  if (!e.passed && e.on !== 'candidate') state.gates = { passed: false, failed: e.command, tip: e.tip };
}

function applyLifecycle(state: RecordState, e: EventOf<'workflow_started' | 'workflow_resumed' | 'workflow_finished'>): void {
  const s = state.settings;
  if (e.kind === 'workflow_started') {
    state.started_at = e.ts;
    Object.assign(s, { base: e.base, branch: e.branch ?? null, file: e.file ?? null, jobs: e.jobs ?? null, max_cost_usd: e.max_cost_usd ?? null, min_run_usd: e.min_run_usd ?? null, quota_wait_ms: e.quota_wait_ms ?? null, max_rounds: e.max_rounds ?? null, cli: e.cli ?? null });
    state.finished = false;
  } else if (e.kind === 'workflow_resumed') {
    state.resumes += 1;
    state.finished = false;
    for (const key of ['jobs', 'max_cost_usd', 'min_run_usd', 'quota_wait_ms'] as const) if (e[key] !== undefined && e[key] !== null) s[key] = e[key];
    if (e.retry) state.retries.push({ at: e.ts, tasks: e.tasks ?? [], fresh: e.fresh === true });
  } else {
    state.finished = true;
  }
  // A new process: nothing of the last one is running any more.
  state.gatesRunning = null;
  state.quotaPausedUntil = null;
  for (const task of state.tasks.values()) task.current = null;
}

/** The state after `event`: `state` itself, changed (the engine applies every append to its own). */
export function applyEvent(state: RecordState, event: WorkflowEvent): RecordState {
  switch (event.kind) {
    case 'workflow_started':
    case 'workflow_resumed':
    case 'workflow_finished':
      applyLifecycle(state, event);
      break;
    case 'gates_started':
    case 'gates':
    case 'gates_passed':
      applyGates(state, event);
      break;
    case 'quota_pause':
      state.quotaPausedUntil = event.until;
      break;
    case 'quota_resumed':
      state.quotaPausedUntil = null;
      break;
    default:
      if ('task' in event && typeof event.task === 'string') {
        const task = state.tasks.get(event.task);
        if (task) applyTaskEvent(task, event);
      }
  }
  return state;
}

/** The state a record says: the plan's tasks, every event applied in order. */
export function foldEvents(plan: Pick<Workflow, 'tasks'>, events: readonly WorkflowEvent[]): RecordState {
  const state = initialState(plan);
  for (const event of events) applyEvent(state, event);
  return state;
}

/** The runs of the task's last (re)start. */
export function runsSinceStart(task: TaskFold): RunEntry[] {
  return task.runs.slice(task.runsSince);
}

/** Where each task landed on the integration line (its `merged` event's tip). */
export function mergedHeads(state: RecordState): Map<string, string> {
  return new Map([...state.tasks.values()].filter((t) => t.merged).map((t) => [t.id, t.merged!.tip]));
}

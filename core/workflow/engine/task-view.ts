/**
 * The one shape of a task that `workflow status --json`, `workflow run --json` and
 * `result.json` share, derived from the record's state (state.ts) (the ledger is the truth: a
 * running workflow and a finished one are read the same way). Money is summed in micro-dollars
 * (core/money.ts): JSON carries dollars to six decimals, exact as written.
 */
import type { CostSource } from '../../pricing/price-metrics.ts';
import { toMicros, fromMicros } from '../../money.ts';
import type { Workflow } from '../../plugin-api/workflow-model.ts';
import { taskBranch } from './names.ts';
import type { WorkflowEvent } from './events.ts';
import { foldEvents, type RecordState, type RunEntry, type TaskFold } from './state.ts';

/** A run as status, show and result.json list it: the record's run entry (state.ts), less what only the engine reads. */
export type WorkflowRunRecord = Pick<RunEntry, 'run_id' | 'role' | 'round' | 'cli' | 'status' | 'exit_code' | 'cost_usd' | 'duration_ms' | 'started_at' | 'finished_at'>;

export interface WorkflowMetrics {
  cost_usd: number;
  /** Every run reported its cost (else cost_usd is a lower bound). */
  cost_known: boolean;
  /** `price-table` when a run's cost was computed from its tokens, `cli` when every known cost was reported, null when none is known. */
  cost_source: CostSource | null;
  input_tokens: number;
  output_tokens: number;
  runs: number;
  duration_ms: number;
}

/** The run in progress of a running task (from its run_started event). */
export interface TaskCurrentRun {
  role: string;
  /** Null for the moment between the task's `running` state and its run's first event. */
  run_id: string | null;
  round: number;
  cli: string | null;
  started_at: string;
}

export interface WorkflowTaskView {
  id: string;
  title: string;
  /** A task state (store.ts TASK_STATES). */
  status: string;
  /** Worker rounds run (a conflict round included). */
  rounds: number;
  branch: string;
  /** Why the task is not integrated: the reviewers' last issues, a failure, the conflict, the reason it was skipped. */
  issues: string[];
  metrics: WorkflowMetrics;
  runs: WorkflowRunRecord[];
  depends_on: string[];
  /** The reason of the task's last state change (null when none was given). */
  why: string | null;
  /** The run in progress, for a running task; null otherwise. */
  current: TaskCurrentRun | null;
}

export function emptyMetrics(): WorkflowMetrics {
  return { cost_usd: 0, cost_known: true, cost_source: null, input_tokens: 0, output_tokens: 0, runs: 0, duration_ms: 0 };
}

export function addMetrics(into: WorkflowMetrics, add: WorkflowMetrics): WorkflowMetrics {
  return {
    cost_usd: fromMicros(toMicros(into.cost_usd) + toMicros(add.cost_usd)),
    cost_known: into.cost_known && add.cost_known,
    cost_source: joinCostSource(into.cost_source, add.cost_source),
    input_tokens: into.input_tokens + add.input_tokens,
    output_tokens: into.output_tokens + add.output_tokens,
    runs: into.runs + add.runs,
    duration_ms: into.duration_ms + add.duration_ms,
  };
}

/** Where a sum's cost came from: the price table as soon as one part's did. */
function joinCostSource(a: CostSource | null, b: CostSource | null): CostSource | null {
  return a === 'price-table' || b === 'price-table' ? 'price-table' : (a ?? b);
}

/** One task as the record's state says it is now. */
function viewOf(plan: Workflow, fold: TaskFold): WorkflowTaskView {
  const task = plan.tasks.find((t) => t.id === fold.id)!;
  const metrics = emptyMetrics();
  let micros = 0;
  for (const run of fold.runs) {
    micros += toMicros(run.cost_usd ?? 0);
    metrics.cost_known &&= run.cost_known;
    metrics.cost_source = joinCostSource(metrics.cost_source, run.cost_source);
    metrics.input_tokens += run.input_tokens ?? 0;
    metrics.output_tokens += run.output_tokens ?? 0;
    metrics.runs += 1;
    metrics.duration_ms += run.duration_ms;
  }
  metrics.cost_usd = fromMicros(micros);
  return {
    id: fold.id,
    title: task.title,
    status: fold.status,
    rounds: fold.rounds,
    branch: taskBranch(plan.id, fold.id),
    issues: [...fold.issues],
    metrics,
    runs: fold.runs.map(({ run_id, role, round, cli, status, exit_code, cost_usd, duration_ms, started_at, finished_at }) => ({ run_id, role, round, cli, status, exit_code, cost_usd, duration_ms, started_at, finished_at })),
    depends_on: [...task.depends_on],
    why: fold.why,
    current: fold.status === 'running' && fold.current ? { ...fold.current } : null,
  };
}

/** Every task of the plan, as the record's state says it is now. */
export function taskViewsOf(plan: Workflow, state: RecordState): WorkflowTaskView[] {
  return [...state.tasks.values()].map((fold) => viewOf(plan, fold));
}

/** Every task of the plan, as the events say it is now. */
export function taskViews(plan: Workflow, events: readonly WorkflowEvent[]): WorkflowTaskView[] {
  return taskViewsOf(plan, foldEvents(plan, events));
}

/** The workflow's metrics: its tasks' summed. */
export function sumMetrics(tasks: WorkflowTaskView[]): WorkflowMetrics {
  return tasks.reduce((sum, t) => addMetrics(sum, t.metrics), emptyMetrics());
}

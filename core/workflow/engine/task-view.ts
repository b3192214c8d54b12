/**
 * The one shape of a task that `workflow status --json`, `workflow run --json` and
 * `result.json` share, folded from the plan and events.jsonl (the ledger is the truth: a
 * running workflow and a finished one are read the same way). Money is summed in micro-dollars
 * (core/money.ts): JSON carries dollars to six decimals, exact as written.
 */
import { toMicros, fromMicros } from '../../money.ts';
import type { Workflow } from '../../plugin-api/workflow-model.ts';
import { taskBranch } from './names.ts';
import type { WorkflowEvent } from './event.ts';

export interface WorkflowRunRecord {
  run_id: string;
  role: string;
  round: number;
  /** The adapter the run used (null: unknown, e.g. an older state folder). */
  cli: string | null;
  status: string;
  exit_code: number;
  cost_usd: number | null;
  duration_ms: number;
  started_at: string;
  finished_at: string;
}

export interface WorkflowMetrics {
  cost_usd: number;
  /** Every run reported its cost (else cost_usd is a lower bound). */
  cost_known: boolean;
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
  return { cost_usd: 0, cost_known: true, input_tokens: 0, output_tokens: 0, runs: 0, duration_ms: 0 };
}

export function addMetrics(into: WorkflowMetrics, add: WorkflowMetrics): WorkflowMetrics {
  return {
    cost_usd: fromMicros(toMicros(into.cost_usd) + toMicros(add.cost_usd)),
    cost_known: into.cost_known && add.cost_known,
    input_tokens: into.input_tokens + add.input_tokens,
    output_tokens: into.output_tokens + add.output_tokens,
    runs: into.runs + add.runs,
    duration_ms: into.duration_ms + add.duration_ms,
  };
}

const num = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);
const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);

interface Fold {
  view: WorkflowTaskView;
  micros: number;
}

function runOf(e: WorkflowEvent, cli: string | null): WorkflowRunRecord {
  const cost = num(e.cost_usd);
  return {
    run_id: String(e.run_id),
    role: String(e.role),
    round: num(e.round) ?? 0,
    cli: str(e.cli) ?? cli,
    status: String(e.status),
    exit_code: num(e.exit_code) ?? 0,
    cost_usd: cost === null ? null : fromMicros(toMicros(cost)),
    duration_ms: num(e.duration_ms) ?? 0,
    started_at: str(e.started_at) ?? e.ts,
    finished_at: str(e.finished_at) ?? e.ts,
  };
}

function apply(fold: Fold, e: WorkflowEvent, startedCli: Map<string, string | null>): void {
  const { view } = fold;
  if (e.kind === 'task_state') {
    view.status = String(e.state);
    const round = num(e.round);
    if (round !== null) view.rounds = Math.max(view.rounds, round);
    view.issues = Array.isArray(e.issues) ? e.issues.map(String) : [];
    view.why = str(e.reason);
  } else if (e.kind === 'run_started') {
    const runId = str(e.run_id);
    const cli = str(e.cli);
    if (runId) startedCli.set(runId, cli);
    view.current = { role: String(e.role), run_id: runId, round: num(e.round) ?? 0, cli, started_at: e.ts };
  } else if (e.kind === 'run_finished') {
    const runId = str(e.run_id);
    if (view.current && (runId === null || view.current.run_id === runId)) view.current = null;
    if (runId === null) return;
    const run = runOf(e, startedCli.get(runId) ?? null);
    view.runs.push(run);
    const m = view.metrics;
    fold.micros += toMicros(run.cost_usd ?? 0);
    m.cost_known &&= e.cost_known !== false;
    m.input_tokens += num(e.input_tokens) ?? 0;
    m.output_tokens += num(e.output_tokens) ?? 0;
    m.runs += 1;
    m.duration_ms += run.duration_ms;
  }
}

/** Every task of the plan, as the events say it is now. */
export function taskViews(plan: Workflow, events: WorkflowEvent[]): WorkflowTaskView[] {
  const folds = new Map<string, Fold>(
    plan.tasks.map((t) => [
      t.id,
      {
        micros: 0,
        view: { id: t.id, title: t.title, status: 'pending', rounds: 0, branch: taskBranch(plan.id, t.id), issues: [], metrics: emptyMetrics(), runs: [], depends_on: [...t.depends_on], why: null, current: null },
      },
    ]),
  );
  const startedCli = new Map<string, string | null>();
  for (const e of events) {
    const fold = typeof e.task === 'string' ? folds.get(e.task) : undefined;
    if (fold) apply(fold, e, startedCli);
  }
  return [...folds.values()].map(({ view, micros }) => {
    view.metrics.cost_usd = fromMicros(micros);
    if (view.status !== 'running') view.current = null;
    return view;
  });
}

/** The workflow's metrics: its tasks' summed. */
export function sumMetrics(tasks: WorkflowTaskView[]): WorkflowMetrics {
  return tasks.reduce((sum, t) => addMetrics(sum, t.metrics), emptyMetrics());
}

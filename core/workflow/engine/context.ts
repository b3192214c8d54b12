/**
 * What every part of a running workflow shares: the options, the store, the task records,
 * the money spent, and why the workflow is halting (cost ceiling, Ctrl-C). Task state changes
 * go through `setState`, so each one is an event on disk and a progress line.
 */
import type { runRole as RunRole, RunRoleOptions } from '../../run/run-role.ts';
import { sumUsd } from '../../money.ts';
import type { Registry } from '../../registry.ts';
import type { Workflow, WorkflowTask } from '../../plugin-api/workflow-model.ts';
import type { CliChoice } from '../run-plan.ts';
import type { SlotGitOps } from './git-ops.ts';
import type { IntegrationBranch } from './integration-ref.ts';
import type { CostLedger } from './ledger.ts';
import type { QuotaPause } from './quota.ts';
import type { WorkflowPaths } from './names.ts';
import type { Clock } from './clock.ts';
import type { IntegrationPublisher } from './publish.ts';
import type { EventHooks } from './event-hooks.ts';
import type { Decision, RecordState, RunEntry, TaskFold } from './state.ts';
import type { TaskState, WorkflowStore } from './store.ts';

export type { CliChoice } from '../run-plan.ts';

export interface ProgressEvent {
  task: string;
  state: TaskState;
  round: number;
  /** The role running now (running state). */
  role?: string;
  cli?: string;
  cost_usd: number;
  reason?: string;
  /** The task's state as the record had it when this process took the workflow over (resume, approve, retry). */
  restored?: boolean;
}

export interface WorkflowRunOptions {
  workflow: Workflow;
  repoRoot: string;
  homeDir: string;
  env: Record<string, string | undefined>;
  registry: Registry;
  /** Tasks at once (default: the plan's, else 2). */
  jobs?: number;
  /** Commit or branch the integration branch starts from (default: the plan's base, else HEAD). */
  base?: string;
  cli?: CliChoice;
  /** Overrides every task's max_rounds. */
  maxRounds?: number;
  maxCostUsd?: number;
  /** No run starts when what is left of the ceiling is below this (default DEFAULT_MIN_RUN_USD). */
  minRunUsd?: number;
  /** How long a quota or rate limit may pause the workflow before it ends `stopped` (ms). */
  quotaWaitMs?: number;
  signal?: AbortSignal;
  /** Model name → adapter (wfreaders' cliForModel); without it a task's model picks no CLI. */
  cliForModel?: (model: string, overrides: Record<string, string>) => string | null;
  /** Commands run for every workflow event (--on-event), besides the plan's on_event. */
  onEvent?: string[];
  /** Approves every task that waits for approval as it arrives (for scripts). */
  approveAll?: boolean;
  /** Passed to every run as `sandbox` (run --sandbox). */
  sandbox?: string;
  onProgress?: (event: ProgressEvent) => void;
  /** Once the workflow's state folder and integration branch exist (a run or a resume): its id, before any task starts. */
  onStart?: (started: { workflow_id: string; branch: string }) => void;
  onNotice?: (message: string) => void;
  /** The single-step engine (tests may wrap it); default core/engine's runRole. */
  runRole?: typeof RunRole;
  /** Whether the plan's own commands (setup, gates, on_event) may run, as the application layer decided (core/app/plan-trust.ts); unset: trusted repository or a plan outside it. */
  planCommandsTrusted?: boolean;
  /** Extra RunRoleOptions for every run (grace and backoff knobs, tests' peers). */
  runDefaults?: Partial<RunRoleOptions>;
  /** Each integration is published to a shared remote first, by compare-and-swap (publish.ts; `workflow task --remote`). */
  publisher?: IntegrationPublisher;
  now?: () => Date;
  /** The engine's clock and sleeps (default: the system's; `now` alone sets the time only). */
  clock?: Clock;
}

/**
 * A task as the engine drives it. Its state, why, runs and decision are the record's (state.ts,
 * changed only by events); round and issues are what its next state change will record.
 */
export interface TaskRecord {
  task: WorkflowTask;
  branch: string;
  /** The task's part of the record's state. */
  readonly fold: TaskFold;
  readonly state: TaskState;
  /** The round running now, or the last one run. */
  round: number;
  issues: string[];
  /** Every run of the task, as recorded (run_finished). */
  readonly runs: RunEntry[];
  /** Exit code of the run that made the task fail (3, 4 ...), for the workflow's exit code. */
  failedExitCode: number | null;
  /** A person's decision not acted on yet (approval.ts): approved → merge, rejected → one more worker round. */
  readonly decision: Decision | null;
  /** Who approved the task's merge (its Supervisor-Approved-By trailer), while the approval holds. */
  readonly approvedBy: string | null;
  /** Why the task is in its state: the reason of its last state change (which run, gate, conflict, budget). */
  readonly why: string | null;
  /** Where resume picks the task up: a finished worker round whose commit is on the branch, and the reviewers that passed it. */
  resumeAt: ResumePoint | null;
  /** The feedback the next worker round starts with (resume: the last round's reviewers' issues). */
  feedback: { role: string; issues: string[] }[] | null;
}

export interface ResumePoint {
  round: number;
  /** The task branch's head the worker's round left. */
  head: string;
  /** Reviewers that already passed this head, in order. */
  passed: string[];
}

export interface Engine {
  options: WorkflowRunOptions;
  workflow: Workflow;
  store: WorkflowStore;
  /** Git in the user's repository, with the run's worktree slots (slot-pool.ts). */
  ops: SlotGitOps;
  paths: WorkflowPaths;
  integration: string;
  base: string;
  jobs: number;
  tasks: Map<string, TaskRecord>;
  /** The cost ceiling's ledger: reservations, spend, unknown costs. */
  ledger: CostLedger;
  maxCostUsd: number | null;
  halt: 'stopped' | 'interrupted' | null;
  /** Why the workflow halted (the budget, the quota wait), for the result and the tasks sent back. */
  haltReason: string | null;
  /** A quota or rate limit: no run starts until it is over. */
  quota: QuotaPause;
  /** The merge queue: candidates tested, time waiting for the queue and in the gates. */
  queue: { candidates: number; waited_ms: number; gates_ms: number };
  notices: string[];
  /** The record's state: every event this workflow wrote, applied (state.ts). */
  state: RecordState;
  /** The integration branch (`integration`) as this run drives it: its last tip and its one queue. */
  integrationBranch: IntegrationBranch;
  runRole: typeof RunRole;
  hooks: EventHooks;
  /** The one source of the time (clock.ts). */
  clock: Clock;
}

/** A task record whose state is the record's (`fold`). */
export function taskRecord(task: WorkflowTask, branch: string, fold: TaskFold): TaskRecord {
  return {
    task,
    branch,
    fold,
    get state() {
      return fold.status;
    },
    round: fold.round,
    issues: [...fold.issues],
    get runs() {
      return fold.runs;
    },
    failedExitCode: null,
    get decision() {
      return fold.decision;
    },
    get approvedBy() {
      return fold.decision?.decision === 'approved' ? fold.decision.by : null;
    },
    get why() {
      return fold.why;
    },
    resumeAt: null,
    feedback: null,
  };
}

export function notice(engine: Engine, message: string): void {
  engine.notices.push(message);
  engine.store.append('notice', { message });
  engine.options.onNotice?.(message);
}

export function taskCost(record: TaskRecord): number {
  return sumUsd(record.runs.map((r) => r.cost_usd ?? 0));
}

export function setState(engine: Engine, record: TaskRecord, state: TaskState, extra: { role?: string; cli?: string; reason?: string; retry?: boolean } = {}): void {
  const why = extra.reason ?? (state === 'running' ? `running ${extra.role ?? 'a run'} in round ${record.round}` : null);
  engine.store.append('task_state', { task: record.task.id, state, round: record.round, ...(extra.role ? { role: extra.role } : {}), ...(why ? { reason: why } : {}), ...(record.issues.length && state !== 'running' ? { issues: record.issues } : {}), ...(extra.retry ? { retry: true } : {}) });
  const { retry: _retry, ...shown } = extra;
  engine.options.onProgress?.({ task: record.task.id, state, round: record.round, cost_usd: taskCost(record), ...shown });
}

/**
 * What every part of a running workflow shares: the options, the store, the task records,
 * the money spent, and why the workflow is halting (cost ceiling, Ctrl-C). Task state changes
 * go through `setState`, so each one is an event on disk and a progress line.
 */
import type { RunResult, RunRoleOptions } from '../../run/run-role.ts';
import { sumUsd } from '../../money.ts';
import type { Registry } from '../../registry.ts';
import type { Workflow, WorkflowTask } from '../../plugin-api/workflow-model.ts';
import type { CliChoice } from '../run-plan.ts';
import type { GitOps } from './git-ops.ts';
import type { CostLedger } from './ledger.ts';
import type { QuotaPause } from './quota.ts';
import type { WorkflowPaths } from './names.ts';
import type { ApprovalDecision } from './approval-decision.ts';
import type { EventHooks } from './event-hooks.ts';
import type { WorkflowRunRecord } from './task-view.ts';
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
  runRole?: (options: RunRoleOptions) => Promise<RunResult>;
  /** Extra RunRoleOptions for every run (grace and backoff knobs, tests' peers). */
  runDefaults?: Partial<RunRoleOptions>;
  now?: () => Date;
}

export interface TaskRecord {
  task: WorkflowTask;
  branch: string;
  state: TaskState;
  /** The round running now, or the last one run. */
  round: number;
  rounds: number;
  issues: string[];
  runs: (WorkflowRunRecord & { input_tokens: number | null; output_tokens: number | null; cost_known: boolean })[];
  /** Exit code of the run that made the task fail (3, 4 ...), for the workflow's exit code. */
  failedExitCode: number | null;
  /** A person's decision not acted on yet (approval.ts): approved → merge, rejected → one more worker round. */
  decision: ApprovalDecision | null;
  /** Who approved the task's merge (its Supervisor-Approved-By trailer). */
  approvedBy: string | null;
  /** Why the task is in its state: the reason of its last state change (which run, gate, conflict, budget). */
  why: string | null;
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
  ops: GitOps;
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
  gates: { passed: boolean | null; failed: string | null; tip?: string };
  /** Worktree slots made so far (at most `jobs`); free ones wait in `freeSlots`. */
  slots: string[];
  freeSlots: string[];
  /** How many times the workflow was resumed: slot names of this process (see slotWorktree). */
  generation: number;
  /** Serialises merges into the integration branch and the gates that follow. */
  integrationLock: Promise<unknown>;
  runRole: (options: RunRoleOptions) => Promise<RunResult>;
  hooks: EventHooks;
}

export function notice(engine: Engine, message: string): void {
  engine.notices.push(message);
  engine.store.event('notice', { message });
  engine.options.onNotice?.(message);
}

export function taskCost(record: TaskRecord): number {
  return sumUsd(record.runs.map((r) => r.cost_usd ?? 0));
}

export function setState(engine: Engine, record: TaskRecord, state: TaskState, extra: { role?: string; cli?: string; reason?: string; retry?: boolean } = {}): void {
  record.state = state;
  record.why = extra.reason ?? (state === 'running' ? `running ${extra.role ?? 'a run'} in round ${record.round}` : null);
  engine.store.event('task_state', { task: record.task.id, state, round: record.round, ...(extra.role ? { role: extra.role } : {}), ...(record.why ? { reason: record.why } : {}), ...(record.issues.length && state !== 'running' ? { issues: record.issues } : {}), ...(extra.retry ? { retry: true } : {}) });
  const { retry: _retry, ...shown } = extra;
  engine.options.onProgress?.({ task: record.task.id, state, round: record.round, cost_usd: taskCost(record), ...shown });
}

/** Runs `work` alone on the integration branch (merges and gates never overlap). */
export function withIntegrationLock<T>(engine: Engine, work: () => Promise<T>): Promise<T> {
  const next = engine.integrationLock.then(work, work);
  engine.integrationLock = next.catch(() => {});
  return next;
}

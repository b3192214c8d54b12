/**
 * The workflow result: what `workflow run --json` prints and `result.json` holds. snake_case,
 * stable: scripts read it. A workflow is `pass` only when every task is integrated and the
 * gates pass on the integration branch.
 */
import { EXIT, type ExitCode } from '../../errors.ts';
import type { LedgerSummary } from './ledger.ts';
import type { TaskState } from './store.ts';

export type WorkflowStatus = 'pass' | 'gaps' | 'stopped' | 'interrupted';

export interface WorkflowRunRecord {
  run_id: string;
  role: string;
  round: number;
  status: string;
  exit_code: number;
  cost_usd: number | null;
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

export interface WorkflowTaskResult {
  id: string;
  title: string;
  status: TaskState;
  /** Worker rounds run (a conflict round included). */
  rounds: number;
  branch: string;
  /** Why the task is not integrated: the reviewers' last issues, a failure, the conflict, the reason it was skipped. */
  issues: string[];
  /** Why the task is in its state: which run, gate, conflict or budget (the reason of its last state change). */
  why: string | null;
  metrics: WorkflowMetrics;
  runs: WorkflowRunRecord[];
}

export interface WorkflowResult {
  workflow_id: string;
  name: string;
  status: WorkflowStatus;
  exit_code: ExitCode;
  /** The integration branch. */
  branch: string;
  /** `base..tip` of the integration branch (full ids). */
  git_range: string;
  tasks: WorkflowTaskResult[];
  gates: { passed: boolean | null; failed: string | null };
  /** The cost ceiling's ledger: ceiling, floor, spent, reserved, runs of unknown cost. */
  budget: LedgerSummary;
  /** The gated merge queue: candidates tested, ms waited for the queue, ms in the gates. */
  merge_queue: { gates_on: 'merge' | 'end' | null; candidates: number; waited_ms: number; gates_ms: number };
  /** Why the workflow stopped (the budget, a quota), when it did. */
  stop_reason: string | null;
  /** Each `workflow retry` of this workflow: when, which tasks, whether they started over. */
  retries: { at: string; tasks: string[]; fresh: boolean }[];
  metrics: WorkflowMetrics;
  notices: string[];
  state_dir: string;
  started_at: string;
  finished_at: string;
}

export function emptyMetrics(): WorkflowMetrics {
  return { cost_usd: 0, cost_known: true, input_tokens: 0, output_tokens: 0, runs: 0, duration_ms: 0 };
}

export function addMetrics(into: WorkflowMetrics, add: WorkflowMetrics): WorkflowMetrics {
  return {
    cost_usd: into.cost_usd + add.cost_usd,
    cost_known: into.cost_known && add.cost_known,
    input_tokens: into.input_tokens + add.input_tokens,
    output_tokens: into.output_tokens + add.output_tokens,
    runs: into.runs + add.runs,
    duration_ms: into.duration_ms + add.duration_ms,
  };
}

/**
 * 0 pass; 130 interrupted; otherwise 1, or (as `run`) 3 / 4 when every task that failed
 * failed for that one reason (no valid answer / the CLI failed).
 */
export function workflowExitCode(status: WorkflowStatus, failedRunCodes: number[], stopSignal?: unknown): ExitCode {
  if (status === 'pass') return EXIT.ok;
  // Ctrl-C 130; a hang-up or a TERM as the shell reports them (128 + the signal's number).
  if (status === 'interrupted') return stopSignal === 'SIGHUP' ? (129 as ExitCode) : stopSignal === 'SIGTERM' ? (143 as ExitCode) : EXIT.interrupted;
  if (status === 'gaps' && failedRunCodes.length > 0) {
    if (failedRunCodes.every((c) => c === EXIT.noValidOutput)) return EXIT.noValidOutput;
    if (failedRunCodes.every((c) => c === EXIT.cliFailed)) return EXIT.cliFailed;
  }
  return EXIT.gaps;
}

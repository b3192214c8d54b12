/**
 * The workflow result: what `workflow run --json` prints and `result.json` holds. snake_case,
 * stable: scripts read it. A workflow is `pass` only when every task is integrated and the
 * gates pass on the integration branch.
 */
import { EXIT, type ExitCode } from '../../errors.ts';
import type { LedgerSummary } from './ledger.ts';
import type { WorkflowMetrics, WorkflowTaskView } from './task-view.ts';

export { addMetrics, emptyMetrics, type WorkflowMetrics, type WorkflowRunRecord, type WorkflowTaskView } from './task-view.ts';

export const WORKFLOW_STATUSES = ['pass', 'gaps', 'stopped', 'interrupted', 'awaiting_approval'] as const;
export type WorkflowStatus = (typeof WORKFLOW_STATUSES)[number];

/** A result with one of these is not the end: `workflow resume` (or approve/reject) continues it. */
export const RESUMABLE: readonly string[] = ['interrupted', 'stopped', 'awaiting_approval'];

export interface WorkflowResult {
  workflow_id: string;
  name: string;
  status: WorkflowStatus;
  exit_code: ExitCode;
  /** The integration branch. */
  branch: string;
  /** `base..tip` of the integration branch (full ids). */
  git_range: string;
  /** The same task shape as `workflow status --json` (task-view.ts). */
  tasks: WorkflowTaskView[];
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

/**
 * 0 pass; 130 interrupted; otherwise 1, or (as `run`) 3 / 4 when every task that failed
 * failed for that one reason (no valid answer / the CLI failed).
 */
export function workflowExitCode(status: WorkflowStatus, failedRunCodes: number[], stopSignal?: unknown): ExitCode {
  if (status === 'pass') return EXIT.ok;
  if (status === 'awaiting_approval') return EXIT.awaitingApproval;
  // Ctrl-C 130; a hang-up or a TERM as the shell reports them (128 + the signal's number).
  if (status === 'interrupted') return stopSignal === 'SIGHUP' ? (129 as ExitCode) : stopSignal === 'SIGTERM' ? (143 as ExitCode) : EXIT.interrupted;
  if (status === 'gaps' && failedRunCodes.length > 0) {
    if (failedRunCodes.every((c) => c === EXIT.noValidOutput)) return EXIT.noValidOutput;
    if (failedRunCodes.every((c) => c === EXIT.cliFailed)) return EXIT.cliFailed;
  }
  return EXIT.gaps;
}

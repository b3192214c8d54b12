/**
 * The result of one run: what `supervisor run --json` prints and `result.json` holds
 * (DESIGN.md). Field names are snake_case and stable: scripts read them.
 */
import { EXIT, type ExitCode } from '../errors.ts';
import type { Failure, FailureClass } from '../plugin-api/contracts.ts';
import type { RunMetrics } from './metrics.ts';
import { failureGroup, STOP_REASON_TEXT, type StopReason } from './retry-policy.ts';
import type { RunStatus } from './status-map.ts';

export interface RunResult {
  run_id: string;
  role: string;
  base_role: string | null;
  /** The adapter that ran. */
  cli: string;
  status: RunStatus;
  /** The process exit code this result gives (see exitCodeFor). */
  exit_code: ExitCode;
  /** The validated answer of the last attempt that gave one; null when none did. */
  output: Record<string, unknown> | null;
  /** The answer's own status word (SUCCESS, APPROVED, ...), before mapping. */
  reported_status: string | null;
  /** Problems: the answer's issues, a failed gate, a failure. */
  issues: string[];
  failure: { class: FailureClass; detail: string; http_status?: number } | null;
  /** Why no further attempt was made, when the run ended on a failure (null otherwise). */
  stop_reason: StopReason | null;
  metrics: RunMetrics;
  /** `base..head` of the run's commit on `branch` (null when nothing changed or in place). */
  git_range: string | null;
  branch: string | null;
  /** Files changed between base and head; null when unknown (in place). */
  files_changed: string[] | null;
  worktree: {
    mode: 'worktree' | 'in-place';
    /** Where the CLI ran. */
    path: string;
    /** The worktree is still on disk (--keep-worktree, or its changes could not be committed). */
    kept: boolean;
    /** Why the run was in place, when it was. */
    reason: string | null;
  };
  run_dir: string;
  /** The workflow and task this run belongs to (null outside a workflow). */
  workflow_id: string | null;
  task_id: string | null;
  started_at: string;
  finished_at: string;
  notices: string[];
}

/**
 * 0 pass; 1 finished but not a pass (gaps, a failed gate, or a valid answer reporting an error
 * status such as BLOCKED); 3 no valid output after retries; 4 the CLI could not run or failed;
 * 130 interrupted.
 */
export function exitCodeFor(status: RunStatus, failure: Pick<Failure, 'class' | 'httpStatus'> | null): ExitCode {
  if (status === 'pass') return EXIT.ok;
  if (!failure) return EXIT.gaps;
  if (failure.class === 'interrupted') return EXIT.interrupted;
  if (status === 'gaps') return EXIT.gaps;
  if (failureGroup(failure) === 'answer') return EXIT.noValidOutput;
  return EXIT.cliFailed;
}

/**
 * The failure as the last line of `issues` (scripts read it there), with why the run stopped
 * unless the failure is simply not retried. `renderResult` shows the same line once.
 */
export function failureIssue(failure: Pick<Failure, 'class' | 'detail'>, stop: StopReason | null): string {
  return `${failure.class}: ${failure.detail}${stop && stop !== 'not_retryable' ? ` (stopped: ${STOP_REASON_TEXT[stop]})` : ''}`;
}

/** The answer's issues as lines: strings kept, objects by their description or as JSON. */
export function issuesOf(output: Record<string, unknown> | null): string[] {
  const raw = output?.issues;
  if (raw === undefined || raw === null) return [];
  if (typeof raw === 'string') return raw.split(';').map((s) => s.trim()).filter(Boolean);
  if (!Array.isArray(raw)) return [JSON.stringify(raw)];
  return raw.map((item) => {
    if (typeof item === 'string') return item;
    if (item && typeof item === 'object') {
      const record = item as Record<string, unknown>;
      const text = record.description ?? record.message ?? record.issue ?? record.summary;
      if (typeof text === 'string') {
        const where = typeof record.file === 'string' ? ` (${record.file}${typeof record.line === 'number' ? `:${record.line}` : ''})` : '';
        const severity = typeof record.severity === 'string' ? `[${record.severity}] ` : '';
        return `${severity}${text}${where}`;
      }
    }
    return JSON.stringify(item);
  });
}

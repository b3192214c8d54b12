/**
 * When to try again, as a pure function of the failure and the run so far:
 * - an unusable answer (empty, invalid envelope, no JSON, invalid output) is retried ONCE,
 *   with stricter instructions; then the run ends as `error` (exit 3);
 * - a CLI failure (non-zero exit, timeout, a transient API error) is retried with
 *   exponential backoff, until a circuit breaker opens after repeated consecutive failures;
 * - a failed gate is retried with the gate's output as feedback; then the run ends as `gaps`;
 * - a missing binary, an interruption, an auth error, or a turn/budget limit is not retried;
 * - `max_retries` bounds every kind, and a reached cost ceiling stops everything.
 */
import type { Failure, FailureClass } from '../plugin-api/contracts.ts';
import type { RunStatus } from './status-map.ts';

export type FailureGroup = 'answer' | 'cli' | 'gate' | 'final';

const GROUP: Record<FailureClass, FailureGroup> = {
  empty_output: 'answer',
  invalid_envelope: 'answer',
  no_json: 'answer',
  invalid_output: 'answer',
  nonzero_exit: 'cli',
  timeout: 'cli',
  api_error: 'cli',
  gate_failed: 'gate',
  not_found: 'final',
  interrupted: 'final',
  max_turns: 'final',
  max_budget: 'final',
  workspace_broken: 'final',
  escaped_worktree: 'final',
  commit_failed: 'final',
};

export const DEFAULT_MAX_RETRIES = 2;
export const DEFAULT_BREAKER_THRESHOLD = 3;
export const DEFAULT_BACKOFF_MS = 1000;
const MAX_BACKOFF_MS = 30_000;

export function failureGroup(failure: Pick<Failure, 'class' | 'httpStatus' | 'retryable'>): FailureGroup {
  // The CLI's own word that trying again cannot help (cline's recoverable: false on auth) stands.
  if (failure.retryable === false && GROUP[failure.class] === 'cli') return 'final';
  // Auth and request errors do not fix themselves; 408 (timeout) and 429 (rate limit) may.
  const status = failure.httpStatus;
  if (failure.class === 'api_error' && status !== undefined && status >= 400 && status < 500 && status !== 408 && status !== 429) {
    return 'final';
  }
  return GROUP[failure.class] ?? 'final';
}

export interface RetryState {
  /** Attempts made so far, including the one that just failed. */
  attempts: number;
  /** Retries allowed after the first attempt. */
  maxRetries: number;
  /** Stricter-instruction retries already used. */
  answerRetries: number;
  /** CLI failures in a row, including this one. */
  consecutiveCliFailures: number;
  breakerThreshold: number;
  backoffMs: number;
  /** Summed known cost so far, and the ceiling (null: none). */
  costUsd: number;
  maxCostUsd: number | null;
}

export type RetryMode = 'stricter' | 'backoff' | 'gate_feedback';
export type StopReason = 'not_retryable' | 'retries_exhausted' | 'answer_retry_used' | 'circuit_breaker' | 'cost_ceiling';

export type RetryDecision = { retry: true; mode: RetryMode; delayMs: number } | { retry: false; reason: StopReason };

export function decideRetry(failure: Failure, state: RetryState): RetryDecision {
  const group = failureGroup(failure);
  if (group === 'final') return { retry: false, reason: 'not_retryable' };
  if (state.attempts > state.maxRetries) return { retry: false, reason: 'retries_exhausted' };
  if (group === 'answer' && state.answerRetries >= 1) return { retry: false, reason: 'answer_retry_used' };
  if (group === 'cli' && state.consecutiveCliFailures >= state.breakerThreshold) return { retry: false, reason: 'circuit_breaker' };
  if (state.maxCostUsd !== null && state.costUsd >= state.maxCostUsd) return { retry: false, reason: 'cost_ceiling' };
  if (group === 'answer') return { retry: true, mode: 'stricter', delayMs: 0 };
  if (group === 'gate') return { retry: true, mode: 'gate_feedback', delayMs: 0 };
  return { retry: true, mode: 'backoff', delayMs: backoffDelay(state.backoffMs, state.consecutiveCliFailures) };
}

/** base, 2×base, 4×base, ... capped at MAX_BACKOFF_MS. */
export function backoffDelay(baseMs: number, consecutiveFailures: number): number {
  return Math.min(MAX_BACKOFF_MS, baseMs * 2 ** Math.max(0, consecutiveFailures - 1));
}

/** The run's status when it stops on this failure: a failed gate leaves gaps, the rest is an error. */
export function statusForFailure(failure: Failure): RunStatus {
  return failure.class === 'gate_failed' ? 'gaps' : 'error';
}

/** Human words for a stop reason (logs and the summary). */
export const STOP_REASON_TEXT: Record<StopReason, string> = {
  not_retryable: 'this failure is not retried',
  retries_exhausted: 'no retries left (max_retries)',
  answer_retry_used: 'the one retry with stricter instructions was used',
  circuit_breaker: 'circuit breaker opened after repeated CLI failures',
  cost_ceiling: 'cost ceiling reached',
};

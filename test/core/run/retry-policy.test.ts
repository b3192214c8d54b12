import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { backoffDelay, decideRetry, failureGroup, statusForFailure, type RetryState } from '../../../core/run/retry-policy.ts';
import type { Failure, FailureClass } from '../../../core/plugin-api/contracts.ts';

const f = (cls: FailureClass, httpStatus?: number): Failure => ({ class: cls, detail: 'x', ...(httpStatus ? { httpStatus } : {}) });
const state = (over: Partial<RetryState> = {}): RetryState => ({
  attempts: 1,
  maxRetries: 2,
  answerRetries: 0,
  consecutiveCliFailures: 0,
  breakerThreshold: 3,
  backoffMs: 1000,
  costUsd: 0,
  maxCostUsd: null,
  ...over,
});

describe('retry policy', () => {
  it('retries an unusable answer once, with stricter instructions', () => {
    for (const cls of ['empty_output', 'invalid_envelope', 'no_json', 'invalid_output'] as const) {
      assert.deepEqual(decideRetry(f(cls), state()), { retry: true, mode: 'stricter', delayMs: 0 }, cls);
      assert.deepEqual(decideRetry(f(cls), state({ attempts: 2, answerRetries: 1, maxRetries: 9 })), { retry: false, reason: 'answer_retry_used' }, cls);
    }
  });

  it('retries CLI failures with exponential backoff', () => {
    assert.deepEqual(decideRetry(f('nonzero_exit'), state({ consecutiveCliFailures: 1 })), { retry: true, mode: 'backoff', delayMs: 1000 });
    assert.deepEqual(decideRetry(f('timeout'), state({ attempts: 2, consecutiveCliFailures: 2 })), { retry: true, mode: 'backoff', delayMs: 2000 });
    assert.deepEqual(decideRetry(f('api_error', 500), state({ consecutiveCliFailures: 1 })), { retry: true, mode: 'backoff', delayMs: 1000 });
    assert.deepEqual(decideRetry(f('api_error', 429), state({ consecutiveCliFailures: 1 })), { retry: true, mode: 'backoff', delayMs: 1000 });
    assert.equal(backoffDelay(1000, 10), 30_000);
  });

  it('never retries a missing binary, an interruption, an auth error or a limit', () => {
    for (const failure of [f('not_found'), f('interrupted'), f('api_error', 401), f('api_error', 403), f('max_turns'), f('max_budget')]) {
      assert.deepEqual(decideRetry(failure, state({ consecutiveCliFailures: 1 })), { retry: false, reason: 'not_retryable' }, failure.class);
    }
  });

  it("never retries a CLI failure the CLI itself calls unrecoverable (cline's auth errorClass), whatever its status", () => {
    const failure = { ...f('api_error'), retryable: false };
    assert.deepEqual(decideRetry(failure, state({ consecutiveCliFailures: 1 })), { retry: false, reason: 'not_retryable' });
    assert.equal(decideRetry(f('api_error'), state({ consecutiveCliFailures: 1 })).retry, true, 'without the word, an API error is retried');
  });

  it('retries a failed gate with feedback; the run then ends as gaps', () => {
    assert.deepEqual(decideRetry(f('gate_failed'), state()), { retry: true, mode: 'gate_feedback', delayMs: 0 });
    assert.deepEqual(decideRetry(f('gate_failed'), state({ attempts: 3 })), { retry: false, reason: 'retries_exhausted' });
    assert.equal(statusForFailure(f('gate_failed')), 'gaps');
    assert.equal(statusForFailure(f('no_json')), 'error');
  });

  it('max_retries bounds every kind of retry', () => {
    assert.deepEqual(decideRetry(f('no_json'), state({ maxRetries: 0 })), { retry: false, reason: 'retries_exhausted' });
    assert.deepEqual(decideRetry(f('nonzero_exit'), state({ attempts: 3, consecutiveCliFailures: 1 })), { retry: false, reason: 'retries_exhausted' });
  });

  it('opens the circuit breaker after consecutive CLI failures', () => {
    assert.deepEqual(decideRetry(f('nonzero_exit'), state({ attempts: 3, maxRetries: 10, consecutiveCliFailures: 3 })), { retry: false, reason: 'circuit_breaker' });
    assert.equal(decideRetry(f('nonzero_exit'), state({ attempts: 2, maxRetries: 10, consecutiveCliFailures: 2 })).retry, true);
  });

  it('stops at the cost ceiling', () => {
    assert.deepEqual(decideRetry(f('no_json'), state({ costUsd: 1, maxCostUsd: 1 })), { retry: false, reason: 'cost_ceiling' });
    assert.equal(decideRetry(f('no_json'), state({ costUsd: 0.5, maxCostUsd: 1 })).retry, true);
  });

  it('groups failure classes', () => {
    assert.equal(failureGroup(f('api_error')), 'cli');
    assert.equal(failureGroup(f('api_error', 408)), 'cli');
    assert.equal(failureGroup(f('api_error', 401)), 'final');
  });
});

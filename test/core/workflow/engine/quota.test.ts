/** Quota and rate limits: which failures they are, the wait a CLI asked for, backoff within the quota wait. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RunResult } from '../../../../core/run/run-role.ts';
import { isQuotaFailure, learnedWaitMs, nextPause, noPause, parseDuration } from '../../../../core/workflow/engine/quota.ts';

const failed = (failure: RunResult['failure']) => ({ failure }) as RunResult;

describe('quota pauses', () => {
  it('knows a 429 and the CLIs quota messages, and nothing else', () => {
    assert.equal(isQuotaFailure(failed({ class: 'api_error', detail: 'claude: API Error: Request rejected (429) · Rate limited', http_status: 429 })), true);
    assert.equal(isQuotaFailure(failed({ class: 'api_error', detail: "codex: You've hit your usage limit. Try again in 2 hours." })), true);
    assert.equal(isQuotaFailure(failed({ class: 'api_error', detail: 'unauthorized', http_status: 401 })), false);
    assert.equal(isQuotaFailure(failed({ class: 'max_budget', detail: 'stopped at its cost limit' })), false);
    assert.equal(isQuotaFailure(failed(null)), false);
  });

  it('learns the wait the CLI printed', () => {
    assert.equal(learnedWaitMs('Retry-After: 30'), 30_000);
    assert.equal(learnedWaitMs('please retry after 2 minutes'), 120_000);
    assert.equal(learnedWaitMs('Try again in 2 hours.'), 7_200_000);
    assert.equal(learnedWaitMs('rate limited'), null);
    assert.equal(learnedWaitMs('Claude AI usage limit reached|1800000060', 1_800_000_000_000), 60_000);
  });

  it('backs off exponentially and stops past the quota wait', () => {
    const first = nextPause(noPause(), 'rate limited', 0, 5000)!;
    assert.deepEqual([first.until, first.since, first.waits], [1000, 0, 1]);
    const second = nextPause(first, 'rate limited', 1000, 5000)!;
    assert.equal(second.until, 3000);
    assert.equal(nextPause(second, 'rate limited', 3000, 5000), null, '3000 + 4000 is past 5000');
    assert.equal(nextPause(noPause(), 'retry-after: 600', 0, 5000), null, 'a reset past the quota wait stops at once');
  });

  it('never waits less than the backoff, even on retry-after: 0 (issue 27, low)', () => {
    const first = nextPause(noPause(), 'HTTP 429, retry-after: 0', 0, 4000)!;
    assert.equal(first.until, 1000);
    const second = nextPause(first, 'HTTP 429, retry-after: 0', 1000, 4000)!;
    assert.equal(second.until, 3000);
    assert.equal(nextPause(second, 'HTTP 429, retry-after: 0', 3000, 4000), null, 'three calls in a 4 s quota wait, not dozens');
  });

  it('reads --quota-wait durations', () => {
    assert.deepEqual(['90', '90s', '5m', '1h', '500ms', 'soon'].map(parseDuration), [90_000, 90_000, 300_000, 3_600_000, 500, null]);
  });
});

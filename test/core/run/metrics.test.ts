import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { knownCost, sumMetrics } from '../../../core/run/metrics.ts';
import { emptyMetrics } from '../../../core/plugin-api/index.ts';

const m = (over: Partial<ReturnType<typeof emptyMetrics>>) => ({ ...emptyMetrics(), ...over });

describe('metrics over attempts', () => {
  it('sums tokens and cost across attempts', () => {
    const total = sumMetrics(
      [
        { metrics: m({ inputTokens: 100, outputTokens: 10, cachedTokens: 5, costUsd: 0.01, model: 'a' }), ran: true, processDurationMs: 50 },
        { metrics: m({ inputTokens: 200, outputTokens: 20, costUsd: 0.02, model: 'b', sessionId: 's2' }), ran: true, processDurationMs: 70 },
      ],
      500,
      null,
    );
    assert.equal(total.input_tokens, 300);
    assert.equal(total.output_tokens, 30);
    assert.equal(total.cached_tokens, 5);
    assert.equal(total.cost_usd, 0.03);
    assert.equal(total.cost_known, true);
    assert.equal(total.attempts, 2);
    assert.equal(total.cli_duration_ms, 120);
    assert.equal(total.duration_ms, 500);
    assert.equal(total.model, 'b');
    assert.equal(total.session_id, 's2');
  });

  it('says so when a CLI reported no cost, instead of pretending 0', () => {
    const none = sumMetrics([{ metrics: m({ inputTokens: 1 }), ran: true, processDurationMs: 1 }], 1, 2);
    assert.equal(none.cost_usd, null);
    assert.equal(none.cost_known, false);
    assert.equal(none.max_cost_usd, 2);
    const some = sumMetrics(
      [
        { metrics: m({ costUsd: 0.5 }), ran: true, processDurationMs: 1 },
        { metrics: null, ran: true, processDurationMs: 1 }, // killed: nothing read
      ],
      1,
      null,
    );
    assert.equal(some.cost_usd, 0.5);
    assert.equal(some.cost_known, false);
  });

  it('counts a CLI that never started as free, and every attempt', () => {
    const total = sumMetrics([{ metrics: null, ran: false, processDurationMs: 2 }], 3, null);
    assert.equal(total.cost_usd, 0);
    assert.equal(total.cost_known, true);
    assert.equal(total.input_tokens, null);
    assert.equal(total.attempts, 1);
    assert.equal(knownCost([{ metrics: m({ costUsd: 0.25 }), ran: true, processDurationMs: 0 }, { metrics: m({}), ran: true, processDurationMs: 0 }]), 0.25);
  });
});

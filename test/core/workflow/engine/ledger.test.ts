/** The cost ceiling's ledger: shares of what is left, the floor, unknown costs, micro-dollar sums. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CostLedger } from '../../../../core/workflow/engine/ledger.ts';

describe('CostLedger', () => {
  it('two runs started side by side get a share each, never the whole remainder twice', () => {
    const ledger = new CostLedger(0.05, 0.001);
    const a = ledger.reserve(2);
    const b = ledger.reserve(2);
    assert.ok(a.ok && b.ok);
    assert.equal(a.budgetUsd, 0.025);
    assert.equal(b.budgetUsd, 0.025);
    assert.equal(ledger.leftUsd(), 0);
    // a spent less than its share: what it did not spend is left for the next run.
    ledger.settle(a.id, 0.0083);
    const c = ledger.reserve(2);
    assert.ok(c.ok);
    assert.equal(c.budgetUsd, 0.0167);
  });

  it('refuses a run when what is left is below the floor, and says how much is left', () => {
    const ledger = new CostLedger(0.02, 0.01);
    const a = ledger.reserve(1);
    assert.ok(a.ok);
    ledger.settle(a.id, 0.015);
    const b = ledger.reserve(1);
    assert.deepEqual(b, { ok: false, leftUsd: 0.005 });
  });

  it('adds in micro-dollars and counts an unknown cost as unknown, not $0 (the ceiling is then not enforced)', () => {
    const ledger = new CostLedger(1);
    for (const cost of [0.1, 0.0599]) ledger.book(cost);
    assert.equal(ledger.spentUsd, 0.1599);
    assert.equal(ledger.summary().enforced, true);
    ledger.book(null);
    assert.deepEqual({ ...ledger.summary(), reserved_usd: 0 }, { ceiling_usd: 1, min_run_usd: 0.01, spent_usd: 0.1599, reserved_usd: 0, unknown_cost_runs: 1, enforced: false });
  });

  it('without a ceiling every run starts and gets no budget', () => {
    const ledger = new CostLedger(null);
    const a = ledger.reserve(4);
    assert.deepEqual(a.ok && a.budgetUsd, undefined);
    assert.equal(ledger.summary().enforced, true);
  });

  it('without a ceiling, a run of unknown cost makes enforced false all the same (it said true with unknown_cost_runs: 6)', () => {
    const ledger = new CostLedger(null);
    ledger.book(null);
    assert.deepEqual([ledger.summary().unknown_cost_runs, ledger.summary().enforced], [1, false]);
  });
});

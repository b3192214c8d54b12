/** The round loop's transition function as a table: state and outcome in, the next state and step out. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { next, startRound, startStep, type LoopState, type Outcome, type Step } from '../../../../core/workflow/engine/round-step.ts';

const S = (fields: Partial<LoopState> = {}): LoopState => ({ round: 1, maxRounds: 3, approve: false, branch: 'b', conflictTip: null, ...fields });
const gaps = [{ role: 'spec-reviewer', issues: ['add a test'] }];

const rows: { name: string; state: LoopState; outcome: Outcome; step: Partial<Step> & { do: Step['do'] }; round?: number; conflictTip?: string | null }[] = [
  { name: 'all passed, no approval needed: merge', state: S(), outcome: { kind: 'judged', feedback: [] }, step: { do: 'merge' } },
  { name: 'all passed, approval needed: hold', state: S({ approve: true }), outcome: { kind: 'judged', feedback: [] }, step: { do: 'hold' } },
  { name: 'approved (a person, or --approve-all): merge', state: S({ approve: true }), outcome: { kind: 'approved' }, step: { do: 'merge' } },
  { name: 'gaps before the last round: the next round with the issues', state: S(), outcome: { kind: 'judged', feedback: gaps }, step: { do: 'work', round: 2, feedback: gaps, conflicts: [] }, round: 2 },
  { name: 'gaps in the last round: the task ends gaps', state: S({ round: 3 }), outcome: { kind: 'judged', feedback: gaps }, step: { do: 'finish', state: 'gaps', issues: ['[spec-reviewer] add a test'], reason: 'round 3 of 3 (the last) ended with gaps from spec-reviewer' } },
  { name: 'a gate failed: the next round with its output', state: S(), outcome: { kind: 'gate_failed', feedback: 'npm test failed', reason: 'gate failed' }, step: { do: 'work', round: 2, feedback: [{ role: 'workflow-gate', issues: ['npm test failed'] }], conflicts: [] }, round: 2 },
  { name: 'a gate failed in the last round: gaps with the gate\'s reason', state: S({ round: 3 }), outcome: { kind: 'gate_failed', feedback: 'npm test failed', reason: 'gate failed' }, step: { do: 'finish', state: 'gaps', issues: ['[workflow-gate] npm test failed'], reason: 'gate failed' } },
  { name: 'the first conflict: start the merge of the new tip', state: S(), outcome: { kind: 'conflict', files: ['x'] }, step: { do: 'start_conflict', files: ['x'] } },
  { name: 'the conflict merge started: one more round on it', state: S(), outcome: { kind: 'conflict_started', tip: 'T', conflicts: ['x'] }, step: { do: 'work', round: 2, feedback: [], conflicts: ['x'] }, round: 2, conflictTip: 'T' },
  { name: 'a second conflict: blocked', state: S({ conflictTip: 'T' }), outcome: { kind: 'conflict', files: ['x'] }, step: { do: 'finish', state: 'blocked' } },
  { name: 'merged: the end', state: S(), outcome: { kind: 'merged' }, step: { do: 'end' } },
  { name: 'halted in the merge queue: the end (resume picks it up)', state: S(), outcome: { kind: 'halted' }, step: { do: 'end' } },
  { name: 'held for a person: the end', state: S(), outcome: { kind: 'held' }, step: { do: 'end' } },
];

describe('round loop: next(state, outcome)', () => {
  for (const row of rows) {
    it(row.name, () => {
      const { state, step } = next(row.state, row.outcome);
      for (const [key, value] of Object.entries(row.step)) assert.deepEqual((step as Record<string, unknown>)[key], value, key);
      assert.equal(state.round, row.round ?? row.state.round);
      assert.equal(state.conflictTip, row.conflictTip === undefined ? row.state.conflictTip : row.conflictTip);
    });
  }
});

describe('round loop: approve, reject, resume and retry are initial states', () => {
  it('approved: straight to the merge, at the round decided on', () => {
    assert.deepEqual(startStep({ decision: 'approved', by: 'alice', issues: [], round: 2 }, 2, []), { do: 'merge' });
    assert.equal(startRound({ decision: 'approved', by: 'alice', issues: [], round: 2 }, 5), 2);
  });
  it('rejected: the next round with the person\'s issues (however often it is replayed)', () => {
    const d = { decision: 'rejected' as const, by: 'bob', issues: ['rename it'], round: 2 };
    assert.deepEqual(startStep(d, 3, []), { do: 'work', round: 3, feedback: [{ role: 'person: bob', issues: ['rename it'] }], conflicts: [] });
    assert.equal(startRound(d, 3), 3);
  });
  it('resumed with a judged round: that round with its feedback; retried (round 0): round 1', () => {
    assert.deepEqual(startStep(null, 2, [{ role: 'r', issues: ['i'] }]), { do: 'work', round: 2, feedback: [{ role: 'r', issues: ['i'] }], conflicts: [] });
    assert.deepEqual(startStep(null, 0, []), { do: 'work', round: 1, feedback: [], conflicts: [] });
  });
});

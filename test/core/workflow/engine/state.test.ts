/**
 * The one reducer as a table of event sequences: each row is what a workflow wrote (every event
 * checked by its schema, as the store would) and what the record's state must then say. The
 * engine applies the same function live and on resume, so these rows are what resume sees.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseEvent, type WorkflowEvent } from '../../../../core/workflow/engine/events.ts';
import { foldEvents, runsSinceStart, type RecordState } from '../../../../core/workflow/engine/state.ts';
import { task, workflow } from './_workflow.ts';

const plan = workflow([task('a', { approve: true }), task('b')]);
const SHA = 'a'.repeat(40);
const TIP = 'b'.repeat(40);
let clock = 0;

/** An event as the store writes it: parsed by its kind's schema (a row with a bad event fails here). */
function ev(kind: string, data: Record<string, unknown> = {}): WorkflowEvent {
  clock += 1;
  const parsed = parseEvent({ ts: `2026-11-27T10:00:${String(clock % 60).padStart(2, '0')}.000Z`, kind, ...data });
  if (!parsed.ok) throw new Error(parsed.problem);
  return parsed.event;
}

const started = () => ev('workflow_started', { workflow_id: 'wf-test', file: 'plan.yaml', base: SHA, branch: 'supervisor/wf/wf-test', jobs: 2, max_cost_usd: null, pid: 1 });
const resumed = (extra: Record<string, unknown> = {}) => ev('workflow_resumed', { workflow_id: 'wf-test', pid: 2, ...extra });
const state = (t: string, s: string, round: number, extra: Record<string, unknown> = {}) => ev('task_state', { task: t, state: s, round, ...extra });
const runStarted = (t: string, role: string, round: number, id: string) => ev('run_started', { task: t, role, round, run_id: id, cli: 'claude' });
const runFinished = (t: string, role: string, round: number, id: string, status = 'pass', extra: Record<string, unknown> = {}) =>
  ev('run_finished', { task: t, role, round, run_id: id, status, exit_code: status === 'pass' ? 0 : 3, cost_usd: 0.01, cost_known: true, git_range: role === 'worker' ? `${SHA}..${TIP}` : null, issues: [], ...extra });
const approval = (t: string, decision: string, round: number, issues: string[] = []) => ev('approval', { task: t, decision, by: 'alice', issues, round });

/** a: worker and reviewers passed round 1, now waiting for a person. */
const awaiting = () => [started(), state('a', 'pending', 0), state('b', 'pending', 0), state('a', 'running', 1, { role: 'worker' }), runStarted('a', 'worker', 1, 'w1'), runFinished('a', 'worker', 1, 'w1'), state('a', 'awaiting_approval', 1)];

interface Row {
  name: string;
  events: () => WorkflowEvent[];
  expect: (s: RecordState) => void;
}

const a = (s: RecordState) => s.tasks.get('a')!;

const rows: Row[] = [
  {
    name: 'approve, then a kill during the set-up that follows: the approval holds (resume merges, asks nothing)',
    events: () => [...awaiting(), approval('a', 'approved', 1), resumed(), state('a', 'pending', 1, { reason: 'approved by alice' }), state('a', 'running', 1, { role: 'set-up' })],
    expect: (s) => {
      assert.deepEqual(a(s).decision, { decision: 'approved', by: 'alice', issues: [], round: 1 });
      assert.deepEqual(a(s).current?.role, 'set-up');
      assert.equal(a(s).current?.round, 1);
    },
  },
  {
    name: 'approve, then kill -9 in the gates of its merge: the approval holds through the next process',
    events: () => [...awaiting(), approval('a', 'approved', 1), resumed(), state('a', 'pending', 1), state('a', 'integrating', 1), ev('gates_started', { tip: TIP, on: 'candidate', task: 'a' }), resumed()],
    expect: (s) => {
      assert.equal(a(s).decision?.decision, 'approved');
      assert.equal(a(s).staleApproval, null, 'nothing changed the approved work');
      assert.equal(s.gatesRunning, null, 'a new process: the killed gates are not running');
      assert.equal(s.gates.passed, null);
    },
  },
  {
    name: 'approved and merged: the decision is acted on',
    events: () => [...awaiting(), approval('a', 'approved', 1), state('a', 'integrating', 1), ev('merged', { task: 'a', head: TIP, tip: SHA, fast_forward: false, gated: false }), state('a', 'integrated', 1)],
    expect: (s) => {
      assert.equal(a(s).decision, null);
      assert.deepEqual(a(s).merged, { head: TIP, tip: SHA });
    },
  },
  {
    name: 'approved, the merge conflicts, the worker runs a conflict round: the approval is stale and named as such',
    events: () => [...awaiting(), approval('a', 'approved', 1), state('a', 'integrating', 1), ev('conflict', { task: 'a', files: ['x'], tip: TIP }), state('a', 'running', 2, { role: 'worker' }), runStarted('a', 'worker', 2, 'w2')],
    expect: (s) => {
      assert.equal(a(s).decision, null);
      assert.deepEqual(a(s).staleApproval, { by: 'alice', round: 1 });
      assert.equal(a(s).conflicts.length, 1);
    },
  },
  {
    name: 'reject, then a kill before the worker starts: the rejection (and its issues) holds',
    events: () => [...awaiting(), approval('a', 'rejected', 1, ['add a test']), resumed(), state('a', 'running', 2, { role: 'set-up' })],
    expect: (s) => {
      assert.deepEqual(a(s).decision, { decision: 'rejected', by: 'alice', issues: ['add a test'], round: 1 });
      assert.equal(a(s).current?.round, 2, 'set-up shows the round it prepares');
    },
  },
  {
    name: 'reject rounds: each rejection is consumed by the worker round it starts',
    events: () => [...awaiting(), approval('a', 'rejected', 1, ['x']), runStarted('a', 'worker', 2, 'w2'), runFinished('a', 'worker', 2, 'w2'), state('a', 'awaiting_approval', 2), approval('a', 'rejected', 2, ['y']), runStarted('a', 'worker', 3, 'w3')],
    expect: (s) => {
      assert.equal(a(s).decision, null);
      assert.equal(a(s).approvals.length, 2);
      assert.equal(a(s).rounds, 2, 'rounds count the recorded states');
      assert.equal(a(s).current?.run_id, 'w3');
    },
  },
  {
    name: 'retry: the task reopens, its rounds count anew, its earlier runs stay in the record',
    events: () => [started(), state('b', 'running', 1, { role: 'worker' }), runStarted('b', 'worker', 1, 'w1'), runFinished('b', 'worker', 1, 'w1', 'gaps'), state('b', 'gaps', 1, { issues: ['no'] }), ev('workflow_finished', { status: 'gaps', exit_code: 1, tip: SHA }), resumed({ retry: true, tasks: ['b'], fresh: false }), state('b', 'pending', 0, { retry: true })],
    expect: (s) => {
      const b = s.tasks.get('b')!;
      assert.equal(b.status, 'pending');
      assert.deepEqual(runsSinceStart(b), []);
      assert.equal(b.runs.length, 1, 'a run is recorded once, and kept');
      assert.deepEqual(b.issues, []);
      assert.equal(s.retries.length, 1);
      assert.equal(s.finished, false);
    },
  },
  {
    name: 'quota pause and its end',
    events: () => [started(), ev('quota_pause', { task: 'b', role: 'worker', run_id: 'w1', until: '2026-11-27T11:00:00.000Z', wait_ms: 1000, detail: '429' })],
    expect: (s) => assert.equal(s.quotaPausedUntil, '2026-11-27T11:00:00.000Z'),
  },
  {
    name: 'quota resumed: no pause',
    events: () => [started(), ev('quota_pause', { task: 'b', role: 'worker', run_id: 'w1', until: '2026-11-27T11:00:00.000Z', wait_ms: 1000, detail: '429' }), ev('quota_resumed', { waited_ms: 1000 })],
    expect: (s) => assert.equal(s.quotaPausedUntil, null),
  },
  {
    name: 'a kill in the final gates: no verdict on that tip; a failed gate on the integration branch is the verdict',
    events: () => [started(), ev('gates_passed', { tip: SHA, on: 'candidate', task: 'b' }), ev('gates_started', { tip: TIP, on: 'integration' }), ev('gates', { tip: TIP, on: 'integration', command: 'npm test', passed: false, exit_code: 1, output_tail: 'x' })],
    expect: (s) => assert.deepEqual(s.gates, { passed: false, failed: 'npm test', tip: TIP }),
  },
  {
    name: 'settings: the start\'s, then each resume\'s',
    events: () => [started(), resumed({ jobs: 4, max_cost_usd: 2 })],
    expect: (s) => {
      assert.equal(s.settings.jobs, 4);
      assert.equal(s.settings.max_cost_usd, 2);
      assert.equal(s.settings.base, SHA);
      assert.equal(s.resumes, 1);
    },
  },
];

describe('applyEvent: the record\'s state, as a table of event sequences', () => {
  for (const row of rows) it(row.name, () => row.expect(foldEvents(plan, row.events())));

  it('refuses an event its kind\'s schema does not describe', () => {
    assert.equal(parseEvent({ ts: 'x', kind: 'task_state', task: 'a', state: 'done-ish', round: 1 }).ok, false);
    assert.equal(parseEvent({ ts: 'x', kind: 'no_such_kind' }).ok, false);
    assert.equal(parseEvent({ ts: 'x', kind: 'approval', task: 'a', decision: 'maybe', by: 'x', issues: [] }).ok, false);
  });
});

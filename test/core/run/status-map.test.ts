import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mapStatus } from '../../../core/run/status-map.ts';
import { exitCodeFor, issuesOf } from '../../../core/run/result.ts';

describe('status mapping (seed 003)', () => {
  it('maps every word of the table, ignoring case and space', () => {
    for (const word of ['SUCCESS', 'COMPLETE', 'APPROVED', 'COMPLETED', 'pass', ' success ']) assert.equal(mapStatus(word).status, 'pass', word);
    for (const word of ['PARTIAL', 'NEEDS_REFINEMENT', 'CHANGES_REQUESTED', 'REJECTED', 'RETRY', 'gaps']) assert.equal(mapStatus(word).status, 'gaps', word);
    for (const word of ['FAILED', 'BLOCKED', 'STUCK', 'error']) assert.equal(mapStatus(word).status, 'error', word);
    // the answer's own word is kept as given, and marked as one the table knows
    assert.deepEqual(mapStatus(' Approved '), { status: 'pass', reported: ' Approved ', known: true });
  });

  it('treats a missing or unknown status as gaps, never as a pass', () => {
    assert.deepEqual(mapStatus('UNKNOWN'), { status: 'gaps', reported: 'UNKNOWN', known: false });
    assert.deepEqual(mapStatus(undefined), { status: 'gaps', reported: null, known: false });
    assert.deepEqual(mapStatus(42), { status: 'gaps', reported: null, known: false });
  });
});

describe('exit codes', () => {
  it('follow the design', () => {
    assert.equal(exitCodeFor('pass', null), 0);
    assert.equal(exitCodeFor('gaps', null), 1);
    assert.equal(exitCodeFor('error', null), 1); // a valid answer saying BLOCKED
    assert.equal(exitCodeFor('gaps', { class: 'gate_failed' }), 1);
    for (const cls of ['no_json', 'invalid_output', 'empty_output', 'invalid_envelope'] as const) assert.equal(exitCodeFor('error', { class: cls }), 3, cls);
    for (const cls of ['not_found', 'timeout', 'nonzero_exit', 'api_error', 'max_turns', 'max_budget'] as const) assert.equal(exitCodeFor('error', { class: cls }), 4, cls);
    assert.equal(exitCodeFor('error', { class: 'interrupted' }), 130);
  });
});

describe('issues', () => {
  it('reads strings, semicolon lists and issue objects', () => {
    assert.deepEqual(issuesOf({ issues: 'a; b' }), ['a', 'b']);
    assert.deepEqual(issuesOf({ issues: ['x', { severity: 'high', description: 'bad', file: 'a.ts', line: 3 }, { other: 1 }] }), ['x', '[high] bad (a.ts:3)', '{"other":1}']);
    assert.deepEqual(issuesOf({}), []);
    assert.deepEqual(issuesOf(null), []);
  });
});

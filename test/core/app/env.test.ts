/** One parser per tuning variable: the same value reads the same everywhere, a bad one is a usage error naming it. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { killGraceMs, processTuning, retryBackoffMs } from '../../../core/app/env.ts';
import { thrownCode } from '../../helpers/thrown-code.ts';

describe('tuning variables', () => {
  it('unset or empty: undefined; a number of milliseconds: that number', () => {
    assert.equal(killGraceMs({}), undefined);
    assert.equal(killGraceMs({ SUPERVISOR_KILL_GRACE_MS: '' }), undefined);
    assert.equal(killGraceMs({ SUPERVISOR_KILL_GRACE_MS: '300' }), 300);
    assert.equal(retryBackoffMs({ SUPERVISOR_RETRY_BACKOFF_MS: '0' }), 0);
    assert.deepEqual(processTuning({ SUPERVISOR_KILL_GRACE_MS: '300' }), { graceMs: 300 });
  });

  it('not a number, negative or past the longest timer: USAGE (workflows no longer ignore it quietly)', () => {
    for (const bad of ['abc', '-1', String(2 ** 31)]) assert.equal(thrownCode(() => killGraceMs({ SUPERVISOR_KILL_GRACE_MS: bad })), 'USAGE', bad);
  });
});

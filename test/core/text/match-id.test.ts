import assert from 'node:assert/strict';
import { test } from 'node:test';
import { matchId } from '../../../core/text/match-id.ts';

const ids = ['20261125-reviewer-aa11', '20261125-worker-bb22', 'fix-parser', 'fix-parser-2'];

test('an id names itself even when it is the prefix of another', () => {
  assert.deepEqual(matchId(ids, 'fix-parser'), { id: 'fix-parser' });
});

test('a unique prefix wins over parts elsewhere; else a unique part', () => {
  assert.deepEqual(matchId(ids, '20261125-w'), { id: '20261125-worker-bb22' });
  assert.deepEqual(matchId(ids, 'bb22'), { id: '20261125-worker-bb22' });
});

test('several matches are ambiguous, none is not found', () => {
  assert.deepEqual(matchId(ids, '20261125'), { ambiguous: ['20261125-reviewer-aa11', '20261125-worker-bb22'] });
  assert.deepEqual(matchId(ids, 'zzz'), { none: true });
});

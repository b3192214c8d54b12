import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { lastJsonBlock } from '../../../plugins/adapters/_shared/json.ts';

// Hostile sizes that took seconds to minutes when every `}` was matched by its own backward
// scan; the timeout only turns a hang into a failure, it measures nothing.
const HOSTILE = { timeout: 60_000 };

describe('lastJsonBlock', () => {
  it('finds the last JSON object among noise; the outer object of nested ones', () => {
    const stderr = 'warning {not json}\n{"a":1}\nError: boom\n{\n  "error": {"code": 500, "message": "x"},\n  "session_id": "s"\n}\n  at frame (file.js:1:1)\n';
    assert.deepEqual(lastJsonBlock(stderr), { error: { code: 500, message: 'x' }, session_id: 's' });
    assert.deepEqual(lastJsonBlock('{"a":1} then {broken'), { a: 1 });
    assert.deepEqual(lastJsonBlock('{"a":{"b":2}} noise }'), { a: { b: 2 } });
    assert.equal(lastJsonBlock('no braces at all'), undefined);
    assert.equal(lastJsonBlock('{"list": [1, 2}'), undefined);
  });

  it('stays quick on 200,000 unmatched closing braces after the block', HOSTILE, () => {
    assert.deepEqual(lastJsonBlock(`{"error":{"code":429}}${'}'.repeat(200_000)}`), { error: { code: 429 } });
    assert.equal(lastJsonBlock('}'.repeat(200_000)), undefined);
  });

  it('stays quick on 100,000 nested blocks that never parse', HOSTILE, () => {
    assert.equal(lastJsonBlock(`${'{"a":'.repeat(100_000)}x${'}'.repeat(100_000)}`), undefined);
    assert.equal(lastJsonBlock(`${'{x'.repeat(200_000)}${'}'.repeat(200_000)}`), undefined);
  });
});

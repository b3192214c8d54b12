import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatUsd, fromMicros, roundUsd, sumUsd, toMicros } from '../../core/money.ts';

test('sums of costs carry no float noise', () => {
  assert.equal(0.1 + 0.0599, 0.15990000000000001);
  assert.equal(sumUsd([0.1, 0.0599]), 0.1599);
  assert.equal(JSON.stringify({ c: sumUsd([0.1, 0.0599, 0.2]) }), '{"c":0.3599}');
});

test('micro-dollars round trip and round to six decimals', () => {
  assert.equal(toMicros(0.0000015), 2);
  assert.equal(fromMicros(1234567), 1.234567);
  assert.equal(roundUsd(0.12345678), 0.123457);
});

test("people see dollars to the cent's hundredth", () => {
  assert.equal(formatUsd(0.15990000000000001), '$0.1599');
  assert.equal(formatUsd(2), '$2.0000');
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatDiff, truncateLines } from '../../../core/prompt/helpers.ts';

describe('truncateLines', () => {
  it('keeps text that fits unchanged', () => {
    assert.equal(truncateLines('a\nb', 2), 'a\nb');
    assert.equal(truncateLines('', 1), '');
  });

  it('cuts to n lines and says how many were dropped', () => {
    assert.equal(truncateLines('1\n2\n3\n4\n5', 3), '1\n2\n3\n\n[Truncated 2 lines]');
    assert.equal(truncateLines('1\n2', 0), '\n\n[Truncated 2 lines]');
  });

  it('refuses arguments of the wrong type', () => {
    assert.throws(() => truncateLines(undefined as unknown as string, 2), TypeError);
    assert.throws(() => truncateLines('a', -1), TypeError);
    assert.throws(() => truncateLines('a', 1.5), TypeError);
  });
});

describe('formatDiff', () => {
  it('fences a diff as ```diff', () => {
    assert.equal(formatDiff('--- a\n+++ b\n@@\n-x\n+y\n'), '```diff\n--- a\n+++ b\n@@\n-x\n+y\n```');
  });

  it('uses a longer fence when the diff itself holds a fence', () => {
    const diff = '+```json\n+{}\n+```';
    assert.equal(formatDiff(diff), `\`\`\`\`diff\n${diff}\n\`\`\`\``);
  });
});

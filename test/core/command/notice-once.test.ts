/** A notice repeated across a workflow's runs is printed once, then counted. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createNoticeOnce } from '../../../core/command/notice-once.ts';

describe('createNoticeOnce', () => {
  it('prints the first of the same notice from other runs, and the count at the end', () => {
    const printed: string[] = [];
    const once = createNoticeOnce((m) => printed.push(m));
    once.note('a (spec-reviewer, round 1): glob: no files left to pack for ARCHITECTURE*');
    once.note('b (spec-reviewer, round 1): glob: no files left to pack for ARCHITECTURE*');
    once.note('c (code-quality-reviewer, round 2): glob: no files left to pack for ARCHITECTURE*');
    once.note('the cost ceiling is reached');
    assert.deepEqual(printed, ['a (spec-reviewer, round 1): glob: no files left to pack for ARCHITECTURE*', 'the cost ceiling is reached']);
    assert.deepEqual(once.summary(), ['notice: repeated 2 more times: glob: no files left to pack for ARCHITECTURE*']);
  });
});

/** The budget arithmetic on its own: estimation, both pruning orders, protected keys. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { combineFileContext, createMeasure, packWithBudget, resolveFilePriority, type Part } from '../../../core/context/budget.ts';
import { MARKERS } from '../../../core/files/constants.ts';
import { estimateTokens, loadTokenizer } from '../../../core/context/tokens.ts';
import { chars } from './_helpers.ts';

const part = (key: string, n: number): Part => ({ key, content: chars(n, key[0]) });
/** The default measure: 4 characters per token. */
const chars4 = () => createMeasure('chars');

const MINIMIST_LIKE = `function isNumber(x) {
	if (typeof x === 'number') { return true; }
	if ((/^0x[0-9a-f]+$/i).test(x)) { return true; }
	return (/^[-+]?(?:\\d+(?:\\.\\d*)?|\\.\\d+)(e[-+]?\\d+)?$/).test(x);
}

function hasKey(obj, keys) {
	var o = obj;
	keys.slice(0, -1).forEach(function (key) {
		o = o[key] || {};
	});
	return keys[keys.length - 1] in o;
}
`;

describe('estimateTokens', () => {
  it('estimates o200k from character classes, within 10% on real code where 4 characters per token is far off', async () => {
    assert.equal(estimateTokens(''), 0);
    await loadTokenizer('o200k');
    // Source of this repository, minimist-like JavaScript and prose: the three kinds the fit saw.
    const texts = [readFileSync(new URL('../../../core/context/safe-read.ts', import.meta.url), 'utf8'), MINIMIST_LIKE.repeat(20), readFileSync(new URL('../../../README.md', import.meta.url), 'utf8')];
    for (const text of texts) {
      const exact = estimateTokens(text, 'o200k');
      assert.ok(Math.abs(estimateTokens(text) / exact - 1) < 0.1, `estimate ${estimateTokens(text)} against ${exact}`);
    }
    const code = MINIMIST_LIKE.repeat(20);
    assert.ok(Math.abs(code.length / 4 / estimateTokens(code, 'o200k') - 1) > 0.15, 'the old rule was off on this text');
  });

  it('counts o200k tokens exactly once loaded, and treats special-token text as data', async () => {
    assert.throws(() => estimateTokens('x', 'nope' as 'chars'), { code: 'TOKENIZER_UNKNOWN' });
    await loadTokenizer('o200k');
    assert.equal(estimateTokens('hello world', 'o200k'), 2);
    assert.ok(estimateTokens('a <|endoftext|> b', 'o200k') > 3);
  });
});

describe('combineFileContext (template flow)', () => {
  it('keeps everything when it fits', () => {
    const parts = [part('target_file', 100), part('files', 100)];
    const r = combineFileContext(parts, 1000, undefined, chars4());
    assert.deepEqual(r.pruned, []);
    assert.equal(r.text, `${parts[0]!.content}\n\n${parts[1]!.content}`);
  });

  it('fits exactly at budget * 4 characters, joins included, and not one more', () => {
    const exact = [part('target_file', 200), part('files', 198)]; // 200 + "\n\n" + 198 = 400
    assert.deepEqual(combineFileContext(exact, 100, undefined, chars4()).pruned, []);
    const over = [part('target_file', 200), part('files', 199)];
    assert.deepEqual(combineFileContext(over, 100, undefined, chars4()).pruned, ['files']);
  });

  it('drops tree, then files, then related ... before target_file (PART_PRIORITY)', () => {
    const parts = [part('target_file', 400), part('git_diff', 400), part('files', 400), part('tree', 400)];
    const r = combineFileContext(parts, 210, undefined, chars4()); // 840 chars: two parts + join
    assert.deepEqual(r.pruned, ['tree', 'files']);
    assert.ok(r.text.length <= 840);
  });

  it("follows the role's priority_order, prompt-level keys left out", () => {
    const parts = [part('target_file', 400), part('files', 400)];
    const r = combineFileContext(parts, 150, ['system_prompt', 'files', 'target_file'], chars4());
    assert.deepEqual(r.pruned, ['target_file']);
    assert.equal(r.text, parts[1]!.content);
  });

  it('falls back to PART_PRIORITY when priority_order names no part present', () => {
    assert.deepEqual(resolveFilePriority(['task', 'readme', 'docs'], new Set(['files'])), ['target_file', 'git_diff', 'changed_files', 'imports', 'related', 'files', 'tree']);
    assert.deepEqual(resolveFilePriority(['files', 'custom', 'target_file'], new Set(['files', 'custom', 'target_file'])), ['files', 'custom', 'target_file']);
  });

  it('never prunes always_include, and warns when it alone is over budget', () => {
    const parts = [part('always_include', 1000), part('target_file', 100)];
    const r = combineFileContext(parts, 100, ['always_include', 'target_file'], chars4());
    assert.deepEqual(r.pruned, ['target_file']);
    assert.equal(r.text, parts[0]!.content);
    assert.equal(r.warnings.length, 1);
  });

  it('drops unlisted extra sections after the listed keys, keeping those that still fit', () => {
    const parts = [part('target_file', 400), part('files', 400), part('test_output', 100)];
    const r = combineFileContext(parts, 30, undefined, chars4());
    assert.deepEqual(r.pruned, ['files', 'target_file']);
    assert.equal(r.text, parts[2]!.content);
  });
});

describe('packWithBudget (legacy flow)', () => {
  const base = () => [part('system_prompt', 100), part('task', 100)];

  it('fits exactly at budget * 4 characters, joins included, and not one more', () => {
    const exact = [...base(), part('files', 96)]; // 100 + 2 + 100 + 2 + 96 = 300
    assert.deepEqual(packWithBudget(exact, 75, chars4()).pruned, []);
    assert.deepEqual(packWithBudget([...base(), part('files', 97)], 75, chars4()).pruned, ['files']);
  });

  it('prunes unlisted keys first, then tree → files → ... → target_file', () => {
    const parts = [...base(), part('target_file', 100), part('files', 100), part('tree', 100), part('test_output', 100)];
    const r = packWithBudget(parts, 75, chars4()); // 300 chars: system_prompt + task + target_file is 304 with its joins
    assert.deepEqual(r.pruned, ['test_output', 'tree', 'files', 'target_file']);
    assert.equal(r.text, `${parts[0]!.content}\n\n${parts[1]!.content}`);
  });

  it('never prunes system_prompt, task or always_include; adds the truncation notice when they alone are over', () => {
    const parts = [part('system_prompt', 500), part('task', 500), part('always_include', 500), part('files', 10)];
    const r = packWithBudget(parts, 100, chars4());
    assert.deepEqual(r.pruned, ['files']);
    assert.ok(r.text.startsWith(`${parts[0]!.content}\n\n${parts[1]!.content}\n\n${parts[2]!.content}`));
    assert.ok(r.text.endsWith(MARKERS.protectedExceedsBudget));
    assert.equal(r.warnings.length, 1);
  });
});

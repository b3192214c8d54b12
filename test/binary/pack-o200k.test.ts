/**
 * Exact o200k counts in the binary: the rank table is made by the build (scripts/pkg/
 * o200k-table.mjs) and read from the binary's assets, and must give the library's counts as the
 * table built from the ranks does from source (an earlier packing of the ranks once did not: its
 * module had another shape).
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { makeRepo } from '../helpers/git-repo.ts';
import { binarySuite, makeSandbox, type Sandbox } from './binary.ts';

describe('pack --tokenizer o200k in the binary', binarySuite(), () => {
  let box: Sandbox;
  before(async () => {
    box = await makeSandbox();
  });

  it('counts as the library does, fast on a long chunk, on the table the build made', { timeout: 60_000 }, async () => {
    // One 400 KB run of letters: the library's own merge is quadratic on it (minutes), the heap merge takes milliseconds.
    let letters = '';
    for (let i = 0; letters.length < 400_000; i++) letters += String.fromCharCode(97 + ((i * 7919) % 26));
    const files = { 'a.ts': 'export const a = "héllo"; // 日本語 😀👍🏽 → “quoted”\n', 'long.txt': `${letters}\n`, 'b.md': "# B\n\nIt's <|endoftext|> here.\n" };
    const repo = await makeRepo(files);
    const run = await box.run(['pack', '--no-user-plugins', '--tokenizer', 'o200k', '--json'], { cwd: repo, env: { SUPERVISOR_CODE_CACHE_CHECK: '1', SUPERVISOR_TOKEN_CACHE: '0' } });
    assert.equal(run.code, 0, run.stderr);
    // The ranks' chunk is not loaded: the table comes from the binary's assets.
    assert.doesNotMatch(run.stderr, /chunk o200k_ranks/);
    assert.match(run.stderr, /code cache: /, 'the check above would pass unchecked without SUPERVISOR_CODE_CACHE_CHECK');
    const packed = JSON.parse(run.stdout) as { text: string; estimated_tokens: number };
    const { countTokens } = await import('gpt-tokenizer/encoding/o200k_base');
    // The long run is counted apart (the library alone would take hours on it): it is a chunk of
    // its own, as is the one-token "x" put in its place.
    const withoutLong = packed.text.replace(letters, 'x');
    const { estimateTokens, loadTokenizer } = await import('../../core/context/tokens.ts');
    await loadTokenizer('o200k');
    assert.equal(packed.estimated_tokens, countTokens(withoutLong, { disallowedSpecial: new Set() }) - 1 + estimateTokens(letters, 'o200k'));
  });
});

/**
 * Exact o200k counts at estimate speed (issue 14, item 4): pieces that add up exactly, a merge
 * that is not quadratic on long chunks, counts kept by content hash, and counting only on read.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { heapMergeStarts } from '../../../core/context/bpe-heap-merge.ts';
import { buildRankTable, tableBytes, tableFromBytes, valueOf } from '../../../core/context/o200k-rank-table.ts';
import { loadO200kRanks } from '../../../core/context/o200k-ranks.ts';
import { createMeasure } from '../../../core/context/measure.ts';
import { packFileContext } from '../../../core/context/pack.ts';
import { o200kBounds, tokenPieces } from '../../../core/context/token-pieces.ts';
import { estimateTokens, loadTokenizer } from '../../../core/context/tokens.ts';
import { makeRepo } from '../../helpers/git-repo.ts';
import { makeRole, packerRegistry } from './_helpers.ts';

const library = async () => {
  const encoding = await import('gpt-tokenizer/encoding/o200k_base');
  const core = (encoding.default as unknown as { bytePairEncodingCoreProcessor: { bytePairMerge(p: Uint8Array): number[] } }).bytePairEncodingCoreProcessor;
  return { encoding, original: core.bytePairMerge.bind(core) };
};

const TEXTS = [
  '## Files\n\n### a.ts\n\n```\nconst a = 1;\n```\n\n### b.md\n\n```\n### not a file\n\n  indented\n\t\ttabs\n```\n',
  `${'x = 1\n'.repeat(5000)}// comment\n/* block */\n\r\n  \n${'longtext'.repeat(3000)}\n`,
  `<files>\n<file path="a&amp;b.ts">\n${'héllo wörld 你好 '.repeat(2000)}\n\u00a0nbsp line\n</file>\n</files>`,
  `${'word '.repeat(4000)}\n/${'/'.repeat(50)}\n\n\n${'1234567890'.repeat(800)}`,
];

describe('exact o200k counts', () => {
  it('pieces add up to the count of the whole text, as the library counts it', async () => {
    await loadTokenizer('o200k');
    const { encoding } = await library();
    for (const text of TEXTS) {
      assert.equal(tokenPieces(text).join(''), text);
      assert.ok(tokenPieces(text).length > 1);
      assert.equal(estimateTokens(text, 'o200k'), encoding.countTokens(text, { disallowedSpecial: new Set() }));
    }
  });

  it('the heap merge on our rank table gives the library merge\'s tokens, long chunks included', async () => {
    const { original } = await library();
    const table = buildRankTable(await loadO200kRanks());
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const alphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZéü你';
    const chunks = ['longtext'.repeat(200), 'a'.repeat(999), 'thequickbrownfox'.repeat(70)];
    for (let i = 0; i < 20; i++) chunks.push(Array.from({ length: 300 + Math.floor(random() * 1500) }, () => alphabet[Math.floor(random() * alphabet.length)]).join(''));
    for (const chunk of chunks) {
      const bytes = Buffer.from(chunk, 'utf8');
      const text = bytes.toString('latin1'); // a character a byte, as the table is looked up
      const starts = heapMergeStarts((from, to) => (valueOf(table, text, from, to) === -1 ? undefined : valueOf(table, text, from, to)), bytes.length);
      const ranks = starts.map((from, i) => valueOf(table, text, from, starts[i + 1] ?? bytes.length));
      assert.deepEqual(ranks, original(bytes), chunk.slice(0, 40));
    }
  });

  it('the table read back from its bytes (as the binary stores it) gives every token its rank; bytes of no table are refused', async () => {
    const ranks = await loadO200kRanks();
    const { slots, keys } = tableBytes(buildRankTable(ranks));
    const table = tableFromBytes(Uint8Array.from(slots), Uint8Array.from(keys));
    assert.ok(table);
    for (let rank = 0, start = 0; rank < ranks.lengths.length; start += ranks.lengths[rank]!, rank++) {
      const token = Buffer.from(ranks.bytes.subarray(start, start + ranks.lengths[rank]!)).toString('latin1');
      if (valueOf(table, token, 0, token.length) !== rank) assert.fail(`token ${rank}`);
    }
    assert.equal(valueOf(table, 'not one token at all', 0, 20), -1);
    assert.equal(tableFromBytes(slots.subarray(0, slots.length - 8), keys), null, 'a slot count not a power of two');
    assert.equal(tableFromBytes(slots.subarray(0, 12), keys), null, 'not whole slots');
  });

  it('bounds hold: lines with a letter or digit at least, bytes at most', async () => {
    await loadTokenizer('o200k');
    for (const text of TEXTS) {
      const { low, high } = o200kBounds(text);
      const exact = estimateTokens(text, 'o200k');
      assert.ok(low <= exact && exact <= high, `${low} <= ${exact} <= ${high}`);
    }
  });

  it('reuses counts of unchanged content from the repository cache, and recounts changed content', async () => {
    await loadTokenizer('o200k');
    const repo = await makeRepo({ 'a.ts': 'const a = 1;\n' });
    const text = '### a.ts\n\nconst a = 1;\n';
    const first = createMeasure('o200k', repo);
    const exact = first.cost(text);
    first.save();
    const file = join(repo, '.supervisor', 'cache', 'o200k-counts.txt');
    assert.ok(existsSync(file));
    assert.equal(readFileSync(join(repo, '.supervisor', 'cache', '.gitignore'), 'utf8'), '*\n');
    // a count the next process finds is used as is: poison it to see that it is read
    const [key] = readFileSync(file, 'utf8').trim().split(' ');
    writeFileSync(file, `${key} 999\n`);
    assert.equal(createMeasure('o200k', repo).cost(text), 999);
    assert.equal(createMeasure('o200k', repo).cost(`${text}x\n`), estimateTokens(`${text}x\n`, 'o200k'));
    assert.equal(createMeasure('o200k', repo, { SUPERVISOR_TOKEN_CACHE: '0' }).cost(text), exact);
  });

  it('a pack counts nothing until a count is read', async () => {
    await loadTokenizer('o200k');
    const repo = await makeRepo({ 'a.ts': 'const a = 1;\n', 'b.ts': 'const b = 2;\n' });
    const packed = await packFileContext({ role: makeRole({ include: ['*.ts'] }), repoRoot: repo, targets: [], registry: packerRegistry(), tokenizer: 'o200k' });
    const cache = join(repo, '.supervisor', 'cache', 'o200k-counts.txt');
    assert.ok(!existsSync(cache), 'no count taken yet');
    assert.equal(packed.estimatedTokens, estimateTokens(packed.text, 'o200k'));
    assert.equal(packed.parts[0]!.tokens, estimateTokens(packed.text, 'o200k'));
    assert.ok(existsSync(cache));
  });
});

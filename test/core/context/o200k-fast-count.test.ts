/**
 * The fast o200k count (o200k-fast-count.ts) gives the library's count: on texts made to hit
 * every alternative of the split expression, ASCII and not, and on random ones.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createO200kCount } from '../../../core/context/o200k-fast-count.ts';

const library = async () => {
  const encoding = await import('gpt-tokenizer/encoding/o200k_base');
  const count = createO200kCount(encoding.default);
  assert.ok(count, 'the library internals the fast count reads are there');
  return { count, expected: (text: string) => encoding.countTokens(text, { disallowedSpecial: new Set() }) };
};

const CASES = [
  '',
  'a',
  'Hello World',
  "don't can'T we'LL they're I've she'd I'M it's",
  'HTMLParser parseHTML XMLHttpRequest ABC abc ABCdef aBC',
  '1 12 123 1234 12345678901',
  'x = a.b(c)[d] // comment\n/* block */\n',
  '  leading  spaces   \n\n\n   trailing   ',
  '\t\ttabs\n\t}\n\r\n\r\n  \r\n',
  '.foo !bar  !!baz ...\n//\n///x\n/a\n',
  '<|endoftext|> <|fim_prefix|>',
  "'s 'tis '''",
  'héllo wörld 你好 café\u00a0nbsp\u2003em\nnext line\n  ünïcode\nÄBC',
  '\n\n\nx\n \ny\n/z\n',
  'end with spaces   ',
  'end with newline\n',
  ' ',
  '\n',
  `${'-'.repeat(80)}\n${'='.repeat(40)}\n${' '.repeat(50)}x\n${'a'.repeat(300)}\n`,
];

/** A small seeded generator: the same random texts on every run. */
function random(seed: number): () => number {
  let s = seed;
  return () => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return s / 2 ** 32;
  };
}

const ALPHABET = ['a', 'b', 'Z', 'Q', 'e', 's', 't', "'", '0', '7', ' ', ' ', '  ', '\n', '\r', '\t', '/', '.', '{', '}', '-', '_', 'é', 'ß', '你', '\u00a0', 'll', 're', 'VE', 'D', '\u0301'];

describe('fast o200k count', () => {
  it('equals the library on texts for each alternative of the split', async () => {
    const { count, expected } = await library();
    for (const text of CASES) assert.equal(count(text), expected(text), JSON.stringify(text));
  });

  it('equals the library on random texts', async () => {
    const { count, expected } = await library();
    const next = random(14);
    for (let i = 0; i < 300; i++) {
      const length = 1 + Math.floor(next() * 200);
      let text = '';
      while (text.length < length) text += ALPHABET[Math.floor(next() * ALPHABET.length)]!;
      assert.equal(count(text), expected(text), JSON.stringify(text));
    }
  });

  it('equals the library on long chunks (merged with a heap)', async () => {
    const { count, expected } = await library();
    const next = random(4);
    const runs = ['abcdefghijklmnopqrstuvwxyz', 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/', '-=_*#~.,;:!?<>()[]{}|/'];
    for (let i = 0; i < 60; i++) {
      const letters = runs[i % runs.length]!;
      let text = i % 2 ? ' ' : '';
      const length = 100 + Math.floor(next() * 3000);
      while (text.length < length) text += letters[Math.floor(next() * letters.length)]!;
      assert.equal(count(text), expected(text), JSON.stringify(text.slice(0, 80)));
    }
  });

  it('equals the library on real source text', async () => {
    const { count, expected } = await library();
    const { readFileSync } = await import('node:fs');
    for (const file of ['core/context/o200k-fast-count.ts', 'README.md', 'package-lock.json']) {
      const text = readFileSync(new URL(`../../../${file}`, import.meta.url), 'utf8');
      assert.equal(count(text), expected(text), file);
    }
  });
});

describe('the encoding object', () => {
  it('is found in the ES module and in the CommonJS build imported whole (the binary\'s lazy chunk)', async () => {
    const { encodingObject } = await import('../../../core/context/tokens.ts');
    const { createRequire } = await import('node:module');
    const esm = await import('gpt-tokenizer/encoding/o200k_base');
    const cjs = createRequire(import.meta.url)('gpt-tokenizer/encoding/o200k_base') as unknown;
    for (const module of [esm, { default: cjs }]) {
      const count = createO200kCount(encodingObject(module));
      assert.ok(count, 'the fast count is installed');
      assert.equal(count("it's 42 <|endoftext|>"), esm.countTokens("it's 42 <|endoftext|>", { disallowedSpecial: new Set() }));
    }
  });
});

/**
 * o200k counts, gpt-tokenizer's numbers (its countTokens with no special tokens), on
 * o200k-rank-table.ts: a count, not tokens. o200k splits text into chunks with one Unicode
 * regular expression (~400 ns a chunk), then merges each chunk's bytes by rank. Here ASCII
 * stretches are split by a hand-written scanner that follows that expression alternative by
 * alternative, and a chunk's rank is looked up by its character codes, so no string is made for
 * a chunk that is one token (nine in ten); the others are merged on the table, their counts
 * kept. Stretches with a non-ASCII character (rare in code) go through the expression, their
 * chunks merged on UTF-8 bytes.
 *
 * One difference, where the library is wrong: it looks a token's bytes up as text decoded by a
 * TextDecoder, which drops a leading byte-order mark, so it never finds the 9 tokens that begin
 * with one (U+FEFF alone is rank 5574); here a token is its bytes, as in o200k itself, and a text
 * with a BOM may count a token fewer.
 *
 * Stretches are cut where the tokenizer always cuts (after "\n" followed by a character that is
 * neither whitespace nor "/": safeStart of token-pieces.ts), so the two ways never meet in one chunk.
 */

import { heapMergeStarts } from './bpe-heap-merge.ts';
import { safeStart } from './token-pieces.ts';
import { type ByteTable, createMemoTable, keepForText, valueOf } from './o200k-rank-table.ts';

const NL = 10;
const CR = 13;
const SPACE = 32;
const SLASH = 47;
const APOSTROPHE = 39;
/**
 * o200k's split expression, as gpt-tokenizer has it (test/core/context/o200k-fast-count.test.ts
 * checks they are the same). Written out here, not imported: the library's module compiles three
 * Unicode expressions when loaded, ~4 ms of every start of the binary.
 */
const CONTRACTION = "(?:'(?:[sS]|[dD]|[mM]|[tT]|[lL][lL]|[vV][eE]|[rR][eE]))?";
export const O200K_SPLIT_PATTERN = [
  String.raw`[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+${CONTRACTION}`,
  String.raw`[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*${CONTRACTION}`,
  String.raw`\p{N}{1,3}`,
  String.raw` ?[^\s\p{L}\p{N}]+[\r\n/]*`,
  String.raw`\s*[\r\n]+`,
  String.raw`\s+(?!\S)`,
  String.raw`\s+`,
].join('|');
const HAS_NON_ASCII = /[^\x00-\x7f]/;
const isUpper = (c: number) => c >= 65 && c <= 90;
const isLower = (c: number) => c >= 97 && c <= 122;
const isLetter = (c: number) => isUpper(c) || isLower(c);
const isDigit = (c: number) => c >= 48 && c <= 57;
/** ASCII \s: \t \n \v \f \r and space. */
const isSpace = (c: number) => c === SPACE || (c >= 9 && c <= 13);
/** [^\s\p{L}\p{N}] in ASCII. */
const isPunct = (c: number) => c >= 0 && !isSpace(c) && !isLetter(c) && !isDigit(c);

/** Counts of short ASCII chunks that are not one token are kept, by their character codes. */
const MEMO_KEY = 24;
const MEMO_SLOTS = 1 << 17;
/** Chunks up to this length are merged by scanning all pairs, as the library does; longer ones with a heap (bpe-heap-merge.ts). */
const MAX_MERGE = 128;

/**
 * The number of tokens of a chunk of `n` bytes that is not one token: the library's merge (lowest
 * rank first, leftmost among equals), with `rank(from, to)` of the chunk's bytes from..to (-1: none).
 */
function mergeCount(rank: (from: number, to: number) => number, n: number): number {
  // Scratch arrays, not two new arrays a chunk: a count merges some hundred thousand chunks.
  const starts = n < MERGE_STARTS.length ? MERGE_STARTS : new Int32Array(n + 1);
  const ranks = n < MERGE_RANKS.length ? MERGE_RANKS : new Int32Array(n + 1);
  let length = n + 1; // of starts; ranks holds length - 1
  for (let i = 0; i <= n; i++) starts[i] = i;
  const pairRank = (i: number) => (i + 2 < length ? rank(starts[i]!, starts[i + 2]!) : -1);
  for (let i = 0; i < n; i++) ranks[i] = pairRank(i);
  for (;;) {
    let lowest = -1;
    let at = -1;
    for (let i = 0; i < length - 1; i++) {
      const r = ranks[i]!;
      if (r !== -1 && (lowest === -1 || r < lowest)) {
        lowest = r;
        at = i;
      }
    }
    if (at === -1) break;
    starts.copyWithin(at + 1, at + 2, length);
    ranks.copyWithin(at + 1, at + 2, length - 1);
    length--;
    ranks[at] = pairRank(at);
    if (at > 0) ranks[at - 1] = pairRank(at - 1);
  }
  return length - 1;
}
const MERGE_STARTS = new Int32Array(MAX_MERGE + 2);
const MERGE_RANKS = new Int32Array(MAX_MERGE + 2);

/** mergeCount for short chunks, the heap merge for long ones. */
function mergedCount(rank: (from: number, to: number) => number, n: number): number {
  if (n <= MAX_MERGE) return mergeCount(rank, n);
  return heapMergeStarts((a, b) => {
    const r = rank(a, b);
    return r === -1 ? undefined : r;
  }, n).length;
}

/** The character code at `k` of a stretch that ends at `end`, -1 past it (a function, not a closure a chunk: less garbage). */
const codeAt = (text: string, k: number, end: number) => (k < end ? text.charCodeAt(k) : -1);

/** The end of the o200k chunk that starts at `i` of an ASCII stretch (the expression's alternatives in order). */
function chunkEnd(text: string, i: number, end: number): number {
  const c = codeAt(text, i, end);
  // 1 and 2: [^\r\n\p{L}\p{N}]? then [A-Z]*[a-z]+ or [A-Z]+[a-z]*, then a contraction.
  let j = c !== CR && c !== NL && !isLetter(c) && !isDigit(c) ? i + 1 : i;
  if (isLetter(codeAt(text, j, end))) {
    while (isUpper(codeAt(text, j, end))) j++;
    while (isLower(codeAt(text, j, end))) j++;
    if (codeAt(text, j, end) === APOSTROPHE) {
      const a = codeAt(text, j + 1, end) | 0x20;
      const b = codeAt(text, j + 2, end) | 0x20;
      if (a === 0x73 || a === 0x64 || a === 0x6d || a === 0x74) j += 2; // 's 'd 'm 't
      else if ((a === 0x6c && b === 0x6c) || (a === 0x76 && b === 0x65) || (a === 0x72 && b === 0x65)) j += 3; // 'll 've 're
    }
    return j;
  }
  // 3: \p{N}{1,3}
  if (isDigit(c)) {
    let k = i + 1;
    while (k < i + 3 && isDigit(codeAt(text, k, end))) k++;
    return k;
  }
  // 4: " ?[^\s\p{L}\p{N}]+[\r\n/]*"
  if (isPunct(c) || (c === SPACE && isPunct(codeAt(text, i + 1, end)))) {
    let k = c === SPACE ? i + 1 : i;
    while (isPunct(codeAt(text, k, end))) k++;
    for (let d = codeAt(text, k, end); d === CR || d === NL || d === SLASH; d = codeAt(text, ++k, end));
    return k;
  }
  // 5, 6, 7: whitespace. c is whitespace here.
  let w = i;
  let lastBreak = -1;
  for (let d = codeAt(text, w, end); isSpace(d); d = codeAt(text, ++w, end)) if (d === CR || d === NL) lastBreak = w;
  if (lastBreak !== -1) return lastBreak + 1; // \s*[\r\n]+
  if (w >= text.length || w - i === 1) return w; // \s+(?!\S) at the end, else \s+
  return w - 1; // \s+(?!\S): all but the last
}

/**
 * A counting function over o200k's rank table (`tableOf`, asked on the first count: a command
 * whose counts all come from the count cache needs none), equal to the library's count with no
 * special tokens.
 */
export function createO200kCount(tableOf: () => ByteTable): (text: string) => number {
  let table: ByteTable | undefined;
  const split = new RegExp(O200K_SPLIT_PATTERN, 'gu');
  const nonAscii = /[^\x00-\x7f]/g;
  const memo = createMemoTable(MEMO_SLOTS, MEMO_KEY);
  const merged = new Map<string, number>();
  let text = '';
  const remember = (chunk: string, n: number) => {
    if (merged.size < 100_000) merged.set(chunk, n);
    return n;
  };
  /** An ASCII chunk text[from, to) that is not one token. */
  const countAscii = (t: ByteTable, from: number, to: number): number => {
    const rank = (a: number, b: number) => valueOf(t, text, from + a, from + b);
    if (to - from <= MEMO_KEY) {
      const known = valueOf(memo, text, from, to);
      if (known !== -1) return known;
      const count = mergeCount(rank, to - from);
      keepForText(memo, text, from, to, count);
      return count;
    }
    const chunk = text.slice(from, to);
    return merged.get(chunk) ?? remember(chunk, mergedCount(rank, to - from));
  };
  /** A chunk with a non-ASCII character: merged on its UTF-8 bytes, held as a latin1 string (a character a byte). */
  const countBytes = (t: ByteTable, chunk: string): number => {
    const known = merged.get(chunk);
    if (known !== undefined) return known;
    const bytes = Buffer.from(chunk, 'utf8').toString('latin1');
    if (valueOf(t, bytes, 0, bytes.length) !== -1) return remember(chunk, 1);
    return remember(chunk, mergedCount((a, b) => valueOf(t, bytes, a, b), bytes.length));
  };
  const countStretch = (t: ByteTable, start: number, end: number): number => {
    let total = 0;
    for (let i = start; i < end; ) {
      const e = chunkEnd(text, i, end);
      total += valueOf(t, text, i, e) !== -1 ? 1 : countAscii(t, i, e);
      i = e;
    }
    return total;
  };
  const countUnicodeStretch = (t: ByteTable, start: number, end: number): number => {
    let total = 0;
    split.lastIndex = start;
    while (split.lastIndex < end) {
      const match = split.exec(text);
      if (!match) break;
      const chunk = match[0];
      const from = match.index;
      if (!HAS_NON_ASCII.test(chunk)) total += valueOf(t, text, from, from + chunk.length) !== -1 ? 1 : countAscii(t, from, from + chunk.length);
      else total += countBytes(t, chunk);
    }
    return total;
  };
  return (input) => {
    table ??= tableOf();
    const t = table;
    text = input; // for the merges
    let total = 0;
    const n = input.length;
    nonAscii.lastIndex = 0;
    let nextNonAscii = nonAscii.test(input) ? nonAscii.lastIndex - 1 : n;
    for (let start = 0; start < n; ) {
      // The stretch: up to the next safe line start.
      let end = input.indexOf('\n', start);
      while (end !== -1 && end + 1 < n && !safeStart(input.charCodeAt(end + 1))) end = input.indexOf('\n', end + 1);
      end = end === -1 || end + 1 >= n ? n : end + 1;
      if (nextNonAscii < end) {
        total += countUnicodeStretch(t, start, end);
        nonAscii.lastIndex = end;
        nextNonAscii = nonAscii.test(input) ? nonAscii.lastIndex - 1 : n;
      } else total += countStretch(t, start, end);
      start = end;
    }
    text = ''; // the counted text is not kept
    return total;
  };
}

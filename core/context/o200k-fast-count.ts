/**
 * o200k counts without the library's per-chunk overhead, the same numbers: a count, not tokens.
 * The library splits text into chunks with one Unicode regular expression (~400 ns a chunk),
 * then looks each chunk up in a Map of 200k strings. Here ASCII stretches are split by a
 * hand-written scanner that follows that regular expression alternative by alternative, and
 * each chunk's rank is looked up in a hash table over its character codes, so no string is made
 * for a chunk that is one token (nine in ten); the others are merged on that table too, their
 * counts kept. Stretches with a non-ASCII character (rare in code) go through the library's
 * regular expression and merge.
 *
 * Stretches are cut where the tokenizer always cuts (after "\n" followed by a character that is
 * neither whitespace nor "/", as in token-pieces.ts), so the two ways never meet in one chunk.
 */

import { heapMergeStarts } from './bpe-heap-merge.ts';

/** The library's core, as far as this file uses it (private in its typings). */
interface O200kCore {
  bytePairStringRankEncoder: Map<string, number>;
  tokenSplitRegex: RegExp;
  bytePairEncode(chunk: string): number[];
}

const NL = 10;
const CR = 13;
const SPACE = 32;
const SLASH = 47;
const APOSTROPHE = 39;
const isUpper = (c: number) => c >= 65 && c <= 90;
const isLower = (c: number) => c >= 97 && c <= 122;
const isLetter = (c: number) => isUpper(c) || isLower(c);
const isDigit = (c: number) => c >= 48 && c <= 57;
/** ASCII \s: \t \n \v \f \r and space. */
const isSpace = (c: number) => c === SPACE || (c >= 9 && c <= 13);
/** [^\s\p{L}\p{N}] in ASCII. */
const isPunct = (c: number) => c >= 0 && !isSpace(c) && !isLetter(c) && !isDigit(c);

/** Open-addressing table of the ASCII tokens up to MAX_KEY characters: character codes → rank. */
const MAX_KEY = 24;
/** Chunks up to this length are merged by scanning all pairs, as the library does; longer ones with a heap (bpe-heap-merge.ts). */
const MAX_MERGE = 128;

interface RankTable {
  mask: number;
  /** Per slot: rank + 1 (0 = empty), key start in `chars`, key length. */
  rank: Int32Array;
  start: Int32Array;
  length: Uint8Array;
  chars: Uint8Array;
}

function hashStep(h: number, c: number): number {
  return Math.imul(h ^ c, 0x01000193);
}
const HASH_SEED = 0x811c9dc5 | 0;

const EMPTY_TABLE: RankTable = { mask: 0, rank: new Int32Array(1), start: new Int32Array(1), length: new Uint8Array(1), chars: new Uint8Array(0) };

function buildTable(ranks: Map<string, number>): RankTable {
  // One pass over the 200k ranks picks the short ASCII keys (no regular expression per key: this
  // runs at every exact count's start), then the table is sized and filled from those.
  const keys: string[] = [];
  const keyRanks: number[] = [];
  let total = 0;
  for (const [key, rank] of ranks) {
    if (key.length > MAX_KEY) continue;
    let i = 0;
    while (i < key.length && key.charCodeAt(i) < 0x80) i++;
    if (i < key.length || i === 0) continue;
    keys.push(key);
    keyRanks.push(rank);
    total += key.length;
  }
  let size = 1;
  while (size < keys.length * 2) size <<= 1;
  const table: RankTable = { mask: size - 1, rank: new Int32Array(size), start: new Int32Array(size), length: new Uint8Array(size), chars: new Uint8Array(total) };
  let at = 0;
  for (let k = 0; k < keys.length; k++) {
    const key = keys[k]!;
    let h = HASH_SEED;
    for (let i = 0; i < key.length; i++) {
      const c = key.charCodeAt(i);
      table.chars[at + i] = c;
      h = hashStep(h, c);
    }
    let slot = h & table.mask;
    while (table.rank[slot] !== 0) slot = (slot + 1) & table.mask;
    table.rank[slot] = keyRanks[k]! + 1;
    table.start[slot] = at;
    table.length[slot] = key.length;
    at += key.length;
  }
  return table;
}

/** Counts of chunks up to MAX_KEY that are not one token, by character codes: no string made to look one up. */
interface CountTable extends RankTable {
  entries: number;
}

const COUNT_SLOTS = 1 << 17;

function createCountTable(): CountTable {
  return { mask: COUNT_SLOTS - 1, rank: new Int32Array(COUNT_SLOTS), start: new Int32Array(COUNT_SLOTS), length: new Uint8Array(COUNT_SLOTS), chars: new Uint8Array((COUNT_SLOTS / 2) * MAX_KEY), entries: 0 };
}

/** Keeps `count` for text[from, to) (at most MAX_KEY characters), while the table is half empty. */
function keepCount(table: CountTable, text: string, from: number, to: number, count: number): void {
  if (table.entries >= COUNT_SLOTS / 2) return;
  let h = HASH_SEED;
  for (let i = from; i < to; i++) h = hashStep(h, text.charCodeAt(i));
  let slot = h & table.mask;
  while (table.rank[slot] !== 0) slot = (slot + 1) & table.mask;
  const start = table.entries * MAX_KEY;
  for (let i = from; i < to; i++) table.chars[start + i - from] = text.charCodeAt(i);
  table.rank[slot] = count + 1;
  table.start[slot] = start;
  table.length[slot] = to - from;
  table.entries++;
}

/** The rank (or count) kept for the ASCII text[from, to) in a table, -1 when there is none. */
function rankInText(table: RankTable, text: string, from: number, to: number): number {
  const n = to - from;
  let h = HASH_SEED;
  for (let i = from; i < to; i++) h = hashStep(h, text.charCodeAt(i));
  for (let slot = h & table.mask; table.rank[slot] !== 0; slot = (slot + 1) & table.mask) {
    if (table.length[slot] !== n) continue;
    const start = table.start[slot]!;
    let i = 0;
    while (i < n && table.chars[start + i] === text.charCodeAt(from + i)) i++;
    if (i === n) return table.rank[slot]! - 1;
  }
  return -1;
}

/**
 * The number of tokens of an ASCII chunk that is not one token: the library's merge (lowest
 * rank first, leftmost among equals), with ranks from the table; pairs longer than the table's
 * keys from `longRank`.
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

/** The end of the o200k chunk that starts at `i` of an ASCII stretch (the regex's alternatives in order). */
function chunkEnd(text: string, i: number, end: number): number {
  const at = (k: number) => (k < end ? text.charCodeAt(k) : -1);
  const c = at(i);
  // 1 and 2: [^\r\n\p{L}\p{N}]? then [A-Z]*[a-z]+ or [A-Z]+[a-z]*, then a contraction.
  let j = c !== CR && c !== NL && !isLetter(c) && !isDigit(c) ? i + 1 : i;
  if (isLetter(at(j))) {
    while (isUpper(at(j))) j++;
    while (isLower(at(j))) j++;
    if (at(j) === APOSTROPHE) {
      const a = at(j + 1) | 0x20;
      const b = at(j + 2) | 0x20;
      if (a === 0x73 || a === 0x64 || a === 0x6d || a === 0x74) j += 2; // 's 'd 'm 't
      else if ((a === 0x6c && b === 0x6c) || (a === 0x76 && b === 0x65) || (a === 0x72 && b === 0x65)) j += 3; // 'll 've 're
    }
    return j;
  }
  // 3: \p{N}{1,3}
  if (isDigit(c)) {
    let k = i + 1;
    while (k < i + 3 && isDigit(at(k))) k++;
    return k;
  }
  // 4: " ?[^\s\p{L}\p{N}]+[\r\n/]*"
  if (isPunct(c) || (c === SPACE && isPunct(at(i + 1)))) {
    let k = c === SPACE ? i + 1 : i;
    while (isPunct(at(k))) k++;
    for (let d = at(k); d === CR || d === NL || d === SLASH; d = at(++k));
    return k;
  }
  // 5, 6, 7: whitespace. c is whitespace here.
  let w = i;
  let lastBreak = -1;
  for (let d = at(w); isSpace(d); d = at(++w)) if (d === CR || d === NL) lastBreak = w;
  if (lastBreak !== -1) return lastBreak + 1; // \s*[\r\n]+
  if (w >= text.length || w - i === 1) return w; // \s+(?!\S) at the end, else \s+
  return w - 1; // \s+(?!\S): all but the last
}

/** A line start after which the tokenizer always cuts: not whitespace, not "/". */
function safeStart(code: number): boolean {
  if (code === SPACE || code === SLASH || (code >= 9 && code <= 13)) return false;
  if (code < 0x80) return true;
  return !/\s/.test(String.fromCharCode(code));
}

/**
 * A counting function equal to the library's count with no special tokens; undefined when the
 * library's internals are not as expected (then the caller counts with the library).
 */
export function createO200kCount(encoding: unknown): ((text: string) => number) | undefined {
  const core = (encoding as { bytePairEncodingCoreProcessor?: Partial<O200kCore> } | null)?.bytePairEncodingCoreProcessor;
  if (!(core?.bytePairStringRankEncoder instanceof Map) || !(core.tokenSplitRegex instanceof RegExp) || typeof core.bytePairEncode !== 'function') return undefined;
  return createCount(core as O200kCore);
}

function createCount(core: O200kCore): (text: string) => number {
  // Built on the first count: a command whose counts all come from the count cache needs none.
  let table: RankTable = EMPTY_TABLE;
  const regex = new RegExp(core.tokenSplitRegex.source, 'gu');
  const nonAscii = /[^\x00-\x7f]/g;
  const merged = new Map<string, number>();
  const counts = createCountTable();
  let text = '';
  const ranks = core.bytePairStringRankEncoder;
  /** A rank of text[from, to), which is ASCII. */
  const asciiRank = (from: number, to: number) => (to - from <= MAX_KEY ? rankInText(table, text, from, to) : (ranks.get(text.slice(from, to)) ?? -1));
  const remember = (chunk: string, n: number) => {
    if (merged.size < 100_000) merged.set(chunk, n);
    return n;
  };
  const countChunk = (chunk: string): number => {
    if (ranks.has(chunk)) return 1;
    return merged.get(chunk) ?? remember(chunk, core.bytePairEncode(chunk).length);
  };
  /** An ASCII chunk text[from, to) that is not one token of the table. */
  const countAscii = (from: number, to: number): number => {
    if (to - from <= MAX_KEY) {
      const known = rankInText(counts, text, from, to);
      if (known !== -1) return known;
      const count = mergeCount((a, b) => asciiRank(from + a, from + b), to - from);
      keepCount(counts, text, from, to, count);
      return count;
    }
    if (ranks.has(text.slice(from, to))) return 1;
    const chunk = text.slice(from, to);
    const known = merged.get(chunk);
    if (known !== undefined) return known;
    if (to - from <= MAX_MERGE) return remember(chunk, mergeCount((a, b) => asciiRank(from + a, from + b), to - from));
    const rankOf = (a: number, b: number) => {
      const rank = asciiRank(from + a, from + b);
      return rank === -1 ? undefined : rank;
    };
    return remember(chunk, heapMergeStarts(rankOf, to - from).length);
  };
  return (input) => {
    if (table === EMPTY_TABLE) table = buildTable(ranks);
    text = input; // for the merges
    const t = table;
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
        regex.lastIndex = start;
        while (regex.lastIndex < end) {
          const match = regex.exec(input);
          if (!match) break;
          total += countChunk(match[0]);
        }
        nonAscii.lastIndex = end;
        nextNonAscii = nonAscii.test(input) ? nonAscii.lastIndex - 1 : n;
      } else {
        for (let i = start; i < end; ) {
          const e = chunkEnd(input, i, end);
          total += e - i <= MAX_KEY && rankInText(t, input, i, e) !== -1 ? 1 : countAscii(i, e);
          i = e;
        }
      }
      start = end;
    }
    text = ''; // the counted text is not kept
    return total;
  };
}

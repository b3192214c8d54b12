/**
 * Exact o200k counts of long texts, fast: a text is counted as pieces cut where the tokenizer
 * itself always cuts, so the pieces' counts add up to the whole text's count exactly.
 *
 * Why that holds: o200k first splits text into chunks with one regular expression, then
 * encodes each chunk on its own. A chunk can run on past a line break only into whitespace or
 * "/" (`[\r\n/]*` after punctuation, `\s*[\r\n]+`, `\s+`); letters, digits and punctuation
 * always start a new chunk after one. So after a "\n" that is followed by any other character,
 * the chunks before and after are the same whether the text is counted whole or in two.
 *
 * Why pieces: gpt-tokenizer counts a 6 MB text ~6 times slower in one call than as its files,
 * and pieces are what the count cache (token-cache.ts) keys, so a changed file costs a
 * recount of that file only. Pieces are cut at section headers ("### path", "<file path=")
 * and, in long stretches without one, at the first safe line start past PIECE_CHARS: both
 * depend only on the text, so unchanged files give the same pieces from run to run.
 */

import { memoLongTexts } from './long-text-memo.ts';

const PIECE_CHARS = 8 * 1024;

/** A line start after which the tokenizer always cuts: not whitespace, not "/". */
export function safeStart(code: number): boolean {
  // \t \n \v \f \r, space, "/", and the non-ASCII whitespace JavaScript's \s knows.
  if (code === 0x20 || code === 0x2f || (code >= 0x09 && code <= 0x0d)) return false;
  if (code < 0x80) return true;
  return !/\s/.test(String.fromCharCode(code));
}

const SECTION_START = /\n(?=### |<file path=")/g;

/** The pieces of a text, in order; joined they are the text. A pack's text is cut to be counted ahead, then to be read: cut once. */
export const tokenPieces: (text: string) => readonly string[] = memoLongTexts(cutPieces);

function cutPieces(text: string): string[] {
  const pieces: string[] = [];
  let start = 0;
  const cut = (at: number) => {
    if (at > start) pieces.push(text.slice(start, at));
    start = at;
  };
  SECTION_START.lastIndex = 0;
  for (;;) {
    const match = SECTION_START.exec(text);
    const next = match ? match.index + 1 : text.length;
    // A long stretch: cut it at safe line starts, PIECE_CHARS apart.
    while (next - start > 2 * PIECE_CHARS) {
      let at = text.indexOf('\n', start + PIECE_CHARS);
      while (at !== -1 && at + 1 < next && !safeStart(text.charCodeAt(at + 1))) at = text.indexOf('\n', at + 1);
      if (at === -1 || at + 1 >= next) break;
      cut(at + 1);
    }
    if (!match) break;
    cut(next);
  }
  cut(text.length);
  return pieces;
}

const isAsciiLetter = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
const isDigit = (c: number) => c >= 48 && c <= 57;
const APOSTROPHE = 39;

/**
 * Cheap bounds on a text's o200k count, no tokenizing. High: every token is at least one UTF-8
 * byte. Low: o200k's chunks hold at most one run of letters (plus a contraction such as "'s")
 * and at most three digits, and no token spans two chunks: so each run of letters is a token
 * at least, and each run of digits one per three digits. Non-ASCII characters are taken as
 * letters that may join runs (a run after an apostrophe, as in "don't", is not counted; a run
 * of digits touching a non-ASCII character neither): both only lower the bound. One pass over
 * the characters, nothing allocated: bounds are taken for every file of a budgeted pack.
 */
export function o200kBounds(text: string): { low: number; high: number } {
  let low = 0;
  const n = text.length;
  for (let i = 0; i < n; ) {
    const c = text.charCodeAt(i);
    if (isAsciiLetter(c) || c >= 0x80) {
      const start = i;
      let ascii = false;
      for (; i < n; i++) {
        const d = text.charCodeAt(i);
        if (isAsciiLetter(d)) ascii = true;
        else if (d < 0x80) break;
      }
      if (ascii && (start === 0 || text.charCodeAt(start - 1) !== APOSTROPHE)) low++;
    } else if (isDigit(c)) {
      const start = i;
      while (i < n && isDigit(text.charCodeAt(i))) i++;
      if ((start === 0 || text.charCodeAt(start - 1) < 0x80) && (i === n || text.charCodeAt(i) < 0x80)) low += Math.ceil((i - start) / 3);
    } else i++;
  }
  return { low, high: Buffer.byteLength(text) };
}

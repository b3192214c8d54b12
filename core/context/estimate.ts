/**
 * The "chars" tokenizer's count: an estimate of o200k's count from character classes, taken in
 * one pass with nothing allocated (the flat 4 characters per token was 8–27% low on code).
 * Weighed: letter chunks (a run of letters, a new one at each capital after a lower-case
 * letter, as o200k's chunks start), letters beyond a chunk's first few, digits, punctuation
 * (chunks and characters), runs of blanks, line breaks and non-ASCII characters. The weights
 * are fitted on real repositories by scripts/estimate/fit.mjs (data and script kept there).
 * The budget of the "chars" tokenizer keeps the seeds' 4-characters rule (constants.ts).
 */

import { memoLongTexts } from './long-text-memo.ts';

/** The features, in the order of ESTIMATE_WEIGHTS. */
export const ESTIMATE_FEATURES = ['letterChunks', 'longLetters', 'digits', 'punctChunks', 'punct', 'blankRuns', 'lineBreaks', 'nonAscii'] as const;

/** Fitted by scripts/estimate/fit.mjs on scripts/estimate/data/*.csv (see its README). */
export const ESTIMATE_WEIGHTS: readonly number[] = [1.3123, 0.2675, 0.6542, 0, 0.3713, 0, 0.5373, 0.8717];

/** Letters of a chunk that its first token usually holds. */
const CHUNK_LETTERS = 6;

const LOWER = 1;
const UPPER = 2;
const DIGIT = 3;
const PUNCT = 4;
const BLANK = 5;
const BREAK = 6;

const CLASS = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  CLASS[c] = c >= 97 && c <= 122 ? LOWER : c >= 65 && c <= 90 ? UPPER : c >= 48 && c <= 57 ? DIGIT : c === 10 || c === 13 ? BREAK : c === 32 || c === 9 || c === 11 || c === 12 ? BLANK : PUNCT;
}

/** The feature counts of a text (ESTIMATE_FEATURES order). */
export function estimateFeatures(text: string): number[] {
  let letterChunks = 0;
  let longLetters = 0;
  let digits = 0;
  let punctChunks = 0;
  let punct = 0;
  let blankRuns = 0;
  let lineBreaks = 0;
  let nonAscii = 0;
  let previous = 0;
  let chunkLength = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const code = text.charCodeAt(i);
    const kind = code < 128 ? CLASS[code]! : 0;
    if (kind === LOWER || kind === UPPER) {
      if ((previous !== LOWER && previous !== UPPER) || (kind === UPPER && previous === LOWER)) {
        letterChunks++;
        chunkLength = 0;
      }
      if (++chunkLength > CHUNK_LETTERS) longLetters++;
    } else if (kind === DIGIT) digits++;
    else if (kind === PUNCT) {
      punct++;
      if (previous !== PUNCT) punctChunks++;
    } else if (kind === BLANK) {
      if (previous !== BLANK) blankRuns++;
    } else if (kind === BREAK) lineBreaks++;
    else nonAscii++;
    previous = kind;
  }
  return [letterChunks, longLetters, digits, punctChunks, punct, blankRuns, lineBreaks, nonAscii];
}

/** The estimated o200k count of a text (a pack's whole text and its one part: estimated once). */
export const estimateCount: (text: string) => number = memoLongTexts(weigh);

function weigh(text: string): number {
  const features = estimateFeatures(text);
  let total = 0;
  for (let i = 0; i < features.length; i++) total += features[i]! * ESTIMATE_WEIGHTS[i]!;
  return Math.round(total);
}

/**
 * Token counting. "chars" is an estimate of o200k's count from character classes (estimate.ts;
 * the budget under "chars" keeps the seeds' 4 characters per token). "o200k" counts exactly,
 * the numbers of gpt-tokenizer's o200k_base (pure JS, offline), with o200k-fast-count.ts on the
 * library's ranks; they are large, so they are imported only when asked for. Long texts are
 * counted in pieces that add up exactly (token-pieces.ts), each looked up in a count cache when
 * one is given (token-cache.ts).
 */
import { estimateCount } from './estimate.ts';
import { contextErrors } from './errors.ts';
import type { CountCache } from './token-cache.ts';
import { tokenPieces } from './token-pieces.ts';
import { createO200kCount } from './o200k-fast-count.ts';
import { loadO200kTable } from './o200k-ranks.ts';

export type TokenizerName = 'chars' | 'o200k';

type CountTokens = (text: string) => number;

let o200k: CountTokens | undefined;

function isTokenizerName(value: unknown): value is TokenizerName {
  return value === 'chars' || value === 'o200k';
}

/** Throws TOKENIZER_UNKNOWN for a name that is not a tokenizer. */
export function checkTokenizer(name: unknown): asserts name is TokenizerName {
  if (!isTokenizerName(name)) throw contextErrors.tokenizerUnknown(String(name));
}

/** Loads a tokenizer so that estimateTokens can use it synchronously. */
export async function loadTokenizer(name: TokenizerName = 'chars'): Promise<void> {
  checkTokenizer(name);
  if (name === 'o200k' && !o200k) {
    // Special-token text such as "<|endoftext|>" inside a file is data, not a control token.
    o200k = createO200kCount(await loadO200kTable());
  }
}

/** Estimated tokens of a text. "o200k" must have been loaded with loadTokenizer first. */
export function estimateTokens(text: string, tokenizer: TokenizerName = 'chars', cache?: CountCache): number {
  if (tokenizer === 'chars') return estimateCount(text);
  if (tokenizer === 'o200k') {
    // Not loaded: counts can still come from the cache; a piece it lacks cannot be counted.
    const count = o200k ?? (cache ? () => { throw contextErrors.tokenizerNotLoaded(tokenizer); } : undefined);
    if (!count) throw contextErrors.tokenizerNotLoaded(tokenizer);
    let total = 0;
    for (const piece of tokenPieces(text)) total += cache ? cache.get(piece, count) : count(piece);
    return total;
  }
  throw contextErrors.tokenizerUnknown(String(tokenizer));
}

/** The exact o200k count of one piece (token-pieces.ts), not cut again. "o200k" must have been loaded. */
export function countPiece(piece: string): number {
  if (!o200k) throw contextErrors.tokenizerNotLoaded('o200k');
  return o200k(piece);
}

/** Async convenience: loads the tokenizer when needed, then counts. */
export async function countTokens(text: string, tokenizer: TokenizerName = 'chars'): Promise<number> {
  await loadTokenizer(tokenizer);
  return estimateTokens(text, tokenizer);
}

/**
 * How the budget measures text, in its own units: characters for "chars" (the seeds' rule is
 * `len(text) <= budget * 4`), tokens for "o200k". Besides the exact cost it gives cheap bounds,
 * so that the budget counts exactly only texts whose count decides what is kept.
 */
import { CHARS_PER_TOKEN } from '../files/constants.ts';
import { countAhead } from './count-ahead.ts';
import { estimateCount } from './estimate.ts';
import { createCountCache, type CountCache } from './token-cache.ts';
import { o200kBounds, tokenPieces } from './token-pieces.ts';
import { estimateTokens, type TokenizerName } from './tokens.ts';

export interface Bounds {
  low: number;
  high: number;
}

export interface Measure {
  tokenizer: TokenizerName;
  /** Exact cost of a text in budget units. */
  cost(text: string): number;
  /** Bounds on `cost` that need no tokenizing (equal to it for "chars"). */
  bounds(text: string): Bounds;
  /** A budget in tokens, in the units of `cost`. */
  limit(budgetTokens: number): number;
  /** Tokens of a text as reported ("chars": the character-class estimate, estimate.ts). */
  tokens(text: string): number;
  /** Keeps exact counts for the next command (the count cache); call once packing is done. */
  save(): void;
  /** Whether `tokens(text)` needs no tokenizer ("chars", or every piece in the count cache). */
  known(text: string): boolean;
  /** Takes every count of `texts` now: reading them after needs no tokenizer. */
  countAhead(texts: readonly string[]): Promise<void>;
}

/** `repoRoot` given: exact counts are cached on disk in the repository's state folder. */
export function createMeasure(tokenizer: TokenizerName, repoRoot: string | null = null, env?: Record<string, string | undefined>): Measure {
  if (tokenizer === 'chars') {
    return {
      tokenizer,
      cost: (text) => text.length,
      bounds: (text) => ({ low: text.length, high: text.length }),
      limit: (budgetTokens) => budgetTokens * CHARS_PER_TOKEN,
      tokens: estimateCount,
      save() {},
      known: () => true,
      countAhead: async () => {},
    };
  }
  const cache: CountCache = createCountCache(tokenizer, repoRoot, env);
  const count = (text: string) => estimateTokens(text, tokenizer, cache);
  return {
    tokenizer,
    cost: count,
    bounds: o200kBounds,
    limit: (budgetTokens) => budgetTokens,
    tokens: count,
    save: () => cache.save(),
    known: (text) => tokenPieces(text).every((piece) => cache.has(piece)),
    countAhead: (texts) => countAhead(texts, cache),
  };
}

/**
 * Exact counts taken before they are read: the pieces of the texts a result reports that the
 * count cache lacks are counted at once, each distinct piece once, so reading the counts
 * afterwards needs no tokenizer. (Spreading them over worker threads was measured: each thread
 * loads its own tokenizer, ~65 MiB more at peak for a count on vite, past issue 30's memory bound.)
 */
import type { CountCache } from './token-cache.ts';
import { tokenPieces } from './token-pieces.ts';
import { countPiece, loadTokenizer } from './tokens.ts';

/** Makes every o200k count of `texts` known to `cache`; loads the tokenizer only when a piece is missing. */
export async function countAhead(texts: readonly string[], cache: CountCache): Promise<void> {
  const missing = new Set<string>();
  for (const text of texts) for (const piece of tokenPieces(text)) if (!missing.has(piece) && !cache.has(piece)) missing.add(piece);
  if (missing.size === 0) return;
  await loadTokenizer('o200k');
  for (const piece of missing) cache.put(piece, countPiece(piece));
}

/**
 * o200k's ranks as bytes (PackedRanks), from gpt-tokenizer's rank list: an array of 200k tokens
 * in rank order, each a string (its UTF-8 bytes) or, where the bytes are not valid UTF-8, an
 * array of byte values. From source the array is packed at load; the binary's lazy chunk carries
 * it packed already, as base64 (`packedRanks` in scripts/pkg/bundle.mjs: the build unpacks it
 * again and fails unless every token's bytes are the library's).
 */
import { getRawAsset, isSea } from 'node:sea';
import { endianness } from 'node:os';
import { buildRankTable, type ByteTable, MAX_KEY_BYTES, type PackedRanks, tableFromBytes } from './o200k-rank-table.ts';

type RankList = readonly (string | readonly number[])[];

/** The form the binary's chunk holds: the marker, then base64 of PackedRanks' two arrays. */
export interface PackedRanksText {
  packedRanks: 1;
  bytes: string;
  lengths: string;
}

/** Packs a rank list: each token's UTF-8 bytes (or its byte values), one after another. */
export function packRanks(list: RankList): PackedRanks {
  const parts = list.map((token) => (typeof token === 'string' ? Buffer.from(token, 'utf8') : Uint8Array.from(token)));
  const lengths = new Uint8Array(parts.length);
  parts.forEach((part, rank) => {
    if (part.length === 0 || part.length > MAX_KEY_BYTES) throw new Error(`o200k: token ${rank} has ${part.length} bytes`);
    lengths[rank] = part.length;
  });
  return { bytes: Buffer.concat(parts), lengths };
}

function isPackedText(value: unknown): value is PackedRanksText {
  const v = value as Partial<PackedRanksText> | null;
  return v?.packedRanks === 1 && typeof v.bytes === 'string' && typeof v.lengths === 'string';
}

/**
 * The ranks from the rank list module as imported: its default export is the list (from
 * source), or the packed text (the binary), possibly once more under `default` where the module
 * is CommonJS imported whole.
 */
export function ranksFromModule(module: unknown): PackedRanks {
  for (let value = module, depth = 0; value && depth < 3; value = (value as { default?: unknown }).default, depth++) {
    if (Array.isArray(value)) return packRanks(value as RankList);
    if (isPackedText(value)) return { bytes: Buffer.from(value.bytes, 'base64'), lengths: Buffer.from(value.lengths, 'base64') };
  }
  throw new Error('o200k: the rank list module has neither a list of tokens nor packed ranks');
}

/** The binary's assets holding the rank table the build made (scripts/pkg/o200k-table.mjs). */
export const O200K_TABLE_ASSETS = { slots: 'o200k-slots.bin', keys: 'o200k-keys.bin' } as const;

/** The table the build made, in the binary (little-endian machines: every target); null elsewhere. */
function tableOfBuild(): ByteTable | null {
  if (!isSea() || endianness() !== 'LE') return null;
  try {
    const raw = (name: string) => new Uint8Array(getRawAsset(name) as ArrayBuffer);
    return tableFromBytes(raw(O200K_TABLE_ASSETS.slots), raw(O200K_TABLE_ASSETS.keys));
  } catch {
    return null; // a binary built without it: the ranks' chunk, as from source
  }
}

/**
 * o200k's rank table, for createO200kCount: in the binary the one the build made, copied out of
 * its assets (~1 ms, where loading the ranks' chunk and building the table took ~35); else built
 * from the ranks when first asked for.
 */
export async function loadO200kTable(): Promise<() => ByteTable> {
  const built = tableOfBuild();
  if (built) return () => built;
  const ranks = await loadO200kRanks();
  return () => buildRankTable(ranks);
}

/** Loads o200k's ranks (gpt-tokenizer's list; a lazy chunk in the binary). */
export async function loadO200kRanks(): Promise<PackedRanks> {
  return ranksFromModule(await import('gpt-tokenizer/bpeRanks/o200k_base'));
}

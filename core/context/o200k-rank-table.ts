/**
 * o200k's 200k tokens as bytes, in one open-addressing hash table: a token's bytes → its rank.
 * Built from the ranks packed as bytes (o200k-ranks.ts): no string is made per token, so the
 * table is ready in tens of milliseconds where a Map of 200k strings took hundreds, and an
 * ASCII chunk is looked up by its character codes, which are its bytes, without a string either.
 */

/** The ranks' bytes, token after token in rank order, and each token's byte length. */
export interface PackedRanks {
  bytes: Uint8Array;
  lengths: Uint8Array;
}

/** Open addressing; per slot two numbers: value + 1 (0 = empty), then key start << 8 | key length. */
export interface ByteTable {
  mask: number;
  slots: Int32Array;
  keys: Uint8Array;
}

const HASH_SEED = 0x811c9dc5 | 0;
const hashStep = (h: number, c: number) => Math.imul(h ^ c, 0x01000193);

/** A key's bytes are at most this long (o200k's longest token has 128). */
export const MAX_KEY_BYTES = 255;

/** The table of all ranks. */
export function buildRankTable(ranks: PackedRanks): ByteTable {
  const count = ranks.lengths.length;
  let size = 1;
  while (size < count * 2) size <<= 1;
  const table: ByteTable = { mask: size - 1, slots: new Int32Array(size * 2), keys: ranks.bytes };
  const { bytes, lengths } = ranks;
  for (let rank = 0, start = 0; rank < count; start += lengths[rank]!, rank++) {
    const end = start + lengths[rank]!;
    let h = HASH_SEED;
    for (let i = start; i < end; i++) h = hashStep(h, bytes[i]!);
    place(table, h, rank, start, lengths[rank]!);
  }
  return table;
}

/**
 * A table's slots and keys as bytes, as the build stores them for the binary (scripts/pkg/
 * o200k-table.mjs): the slots in this machine's byte order, little-endian on every target.
 */
export function tableBytes(table: ByteTable): { slots: Uint8Array; keys: Uint8Array } {
  return { slots: new Uint8Array(table.slots.buffer, table.slots.byteOffset, table.slots.byteLength), keys: table.keys };
}

/** The table tableBytes gave, copied out of them; null when they cannot be one (a slot count not a power of two). */
export function tableFromBytes(slots: Uint8Array, keys: Uint8Array): ByteTable | null {
  const count = slots.byteLength / 8;
  if (!Number.isInteger(count) || count < 2 || (count & (count - 1)) !== 0 || keys.length === 0) return null;
  const copy = new Int32Array(count * 2);
  new Uint8Array(copy.buffer).set(slots);
  return { mask: count - 1, slots: copy, keys: Uint8Array.from(keys) };
}

function place(table: ByteTable, hash: number, value: number, start: number, length: number): void {
  let slot = hash & table.mask;
  while (table.slots[slot * 2] !== 0) slot = (slot + 1) & table.mask;
  table.slots[slot * 2] = value + 1;
  table.slots[slot * 2 + 1] = (start << 8) | length;
}

/**
 * The value kept for text[from, to), -1 when there is none, by the text's character codes: the
 * bytes of ASCII text, or of bytes held as a latin1 string (one character a byte). One kind of
 * argument: the count's hot path (~1.8 million lookups on vite) stays monomorphic.
 */
export function valueOf(table: ByteTable, text: string, from: number, to: number): number {
  const n = to - from;
  let h = HASH_SEED;
  for (let i = from; i < to; i++) h = hashStep(h, text.charCodeAt(i));
  const { slots, keys, mask } = table;
  for (let slot = h & mask; slots[slot * 2] !== 0; slot = (slot + 1) & mask) {
    const key = slots[slot * 2 + 1]!;
    if ((key & 0xff) !== n) continue;
    const start = key >>> 8;
    let i = 0;
    while (i < n && keys[start + i] === text.charCodeAt(from + i)) i++;
    if (i === n) return slots[slot * 2]! - 1;
  }
  return -1;
}

/** A table that keeps values for short ASCII texts as they are met (counts of chunks), up to half full. */
export interface MemoTable extends ByteTable {
  used: number;
  keyBytes: number;
}

export function createMemoTable(slots: number, keyBytes: number): MemoTable {
  return { mask: slots - 1, slots: new Int32Array(slots * 2), keys: new Uint8Array((slots / 2) * keyBytes), used: 0, keyBytes };
}

/** Keeps `value` for the ASCII text[from, to) (at most keyBytes characters) while the table is half empty. */
export function keepForText(table: MemoTable, text: string, from: number, to: number, value: number): void {
  if (table.used * 2 >= table.mask + 1) return;
  const start = table.used * table.keyBytes;
  let h = HASH_SEED;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    table.keys[start + i - from] = c;
    h = hashStep(h, c);
  }
  place(table, h, value, start, to - from);
  table.used++;
}

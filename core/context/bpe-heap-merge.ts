/**
 * Byte-pair merging in O(n log n) for long chunks. gpt-tokenizer merges a chunk by scanning
 * all pairs for the lowest rank after every merge: O(n²), so one 80 KB run of letters (an SVG
 * in vitejs/vite) takes over 10 s to count. This is the same algorithm with the pairs in a heap:
 * lowest rank first, leftmost first among equal ranks, exactly the order of the scan, so the
 * tokens are the same. o200k-fast-count.ts merges chunks longer than MAX_MERGE bytes with it.
 */

/**
 * Min-heap of (rank, start) pairs, ordered by rank, then start: each pair is one number,
 * rank * 2^32 + start (exact while ranks stay below 2^21; o200k's are below 200,019).
 */
class PairHeap {
  private keys: number[] = [];
  get size(): number {
    return this.keys.length;
  }
  push(rank: number, start: number): void {
    const keys = this.keys;
    const key = rank * 4294967296 + start;
    let i = keys.length;
    keys.push(key);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const above = keys[parent]!;
      if (above <= key) break;
      keys[i] = above;
      i = parent;
    }
    keys[i] = key;
  }
  /** The lowest pair's key (rankOf and startOf read it). */
  pop(): number {
    const keys = this.keys;
    const top = keys[0]!;
    const last = keys.pop()!;
    const n = keys.length;
    if (n) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= n) break;
        const r = l + 1;
        const m = r < n && keys[r]! < keys[l]! ? r : l;
        if (keys[m]! >= last) break;
        keys[i] = keys[m]!;
        i = m;
      }
      keys[i] = last;
    }
    return top;
  }
}

const rankOfKey = (key: number) => Math.floor(key / 4294967296);
const startOfKey = (key: number) => key % 4294967296;

/**
 * The parts of one chunk of `n` bytes, merged as the library merges them: their start offsets
 * (`n` ends the last). `rankOf(start, end)` is the rank of the bytes start..end, if a token.
 */
export function heapMergeStarts(rankOf: (start: number, end: number) => number | undefined, n: number): number[] {
  // Parts as a linked list of start offsets; n is the end.
  const next = new Int32Array(n + 1);
  const prev = new Int32Array(n + 1);
  for (let i = 0; i <= n; i++) {
    next[i] = i + 1;
    prev[i] = i - 1;
  }
  const alive = new Uint8Array(n + 1).fill(1);
  const current = new Float64Array(n + 1).fill(Number.POSITIVE_INFINITY);
  const heap = new PairHeap();
  const rankAt = (start: number): number => {
    const end = next[next[start]!];
    if (next[start]! >= n || end === undefined || end > n) return Number.POSITIVE_INFINITY;
    return rankOf(start, end) ?? Number.POSITIVE_INFINITY;
  };
  const update = (start: number) => {
    const rank = rankAt(start);
    current[start] = rank;
    if (rank !== Number.POSITIVE_INFINITY) heap.push(rank, start);
  };
  for (let i = 0; i < n - 1; i++) update(i);
  while (heap.size) {
    const key = heap.pop();
    const rank = rankOfKey(key);
    const start = startOfKey(key);
    if (!alive[start] || current[start] !== rank) continue; // stale
    const gone = next[start]!;
    alive[gone] = 0;
    next[start] = next[gone]!;
    prev[next[gone]!] = start;
    update(start);
    if (start > 0) update(prev[start]!);
  }
  const starts: number[] = [];
  for (let s = 0; s < n; s = next[s]!) starts.push(s);
  return starts;
}

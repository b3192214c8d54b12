/**
 * Byte-pair merging in O(n log n) for long chunks. gpt-tokenizer merges a chunk by scanning
 * all pairs for the lowest rank after every merge: O(n²), so one 80 KB run of letters (an SVG
 * in vitejs/vite) takes over 10 s to count. This is the same algorithm with the pairs in a heap:
 * lowest rank first, leftmost first among equal ranks, exactly the order of the scan, so the
 * tokens are the same. Installed only on chunks longer than LONG_CHUNK_BYTES; if the library's
 * internals are not as expected, nothing is installed and the library's own merge runs.
 */

/** The library's merge core, as far as this file uses it (private in its typings). */
interface MergeCore {
  bytePairMerge(piece: Uint8Array): number[];
  getBpeRankFromBytes(bytes: Uint8Array): number | undefined;
}

const LONG_CHUNK_BYTES = 256;

/** Min-heap of (rank, start) pairs, ordered by rank, then start. */
class PairHeap {
  private ranks: number[] = [];
  private starts: number[] = [];
  get size(): number {
    return this.ranks.length;
  }
  private less(i: number, j: number): boolean {
    return this.ranks[i]! < this.ranks[j]! || (this.ranks[i] === this.ranks[j] && this.starts[i]! < this.starts[j]!);
  }
  private swap(i: number, j: number): void {
    [this.ranks[i], this.ranks[j]] = [this.ranks[j]!, this.ranks[i]!];
    [this.starts[i], this.starts[j]] = [this.starts[j]!, this.starts[i]!];
  }
  push(rank: number, start: number): void {
    this.ranks.push(rank);
    this.starts.push(start);
    for (let i = this.ranks.length - 1; i > 0; ) {
      const parent = (i - 1) >> 1;
      if (!this.less(i, parent)) break;
      this.swap(i, parent);
      i = parent;
    }
  }
  pop(): [rank: number, start: number] {
    const top: [number, number] = [this.ranks[0]!, this.starts[0]!];
    const lastRank = this.ranks.pop()!;
    const lastStart = this.starts.pop()!;
    if (this.ranks.length) {
      this.ranks[0] = lastRank;
      this.starts[0] = lastStart;
      for (let i = 0; ; ) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < this.ranks.length && this.less(l, m)) m = l;
        if (r < this.ranks.length && this.less(r, m)) m = r;
        if (m === i) break;
        this.swap(i, m);
        i = m;
      }
    }
    return top;
  }
}

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
    const [rank, start] = heap.pop();
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

/** The token ranks of one chunk's bytes, merged as the library merges them. */
export function heapMerge(core: Pick<MergeCore, 'getBpeRankFromBytes'>, piece: Uint8Array): number[] {
  const n = piece.length;
  const starts = heapMergeStarts((start, end) => core.getBpeRankFromBytes(piece.subarray(start, end)), n);
  return starts.map((s, i) => {
    const end = starts[i + 1] ?? n;
    const rank = core.getBpeRankFromBytes(piece.subarray(s, end));
    if (rank === undefined) throw new Error(`o200k: no token for the bytes at ${s}..${end}`);
    return rank;
  });
}

/** Makes the encoding's merge use heapMerge on long chunks; true when installed. */
export function installHeapMerge(encoding: unknown): boolean {
  const core = (encoding as { bytePairEncodingCoreProcessor?: Partial<MergeCore> } | null)?.bytePairEncodingCoreProcessor;
  if (!core || typeof core.bytePairMerge !== 'function' || typeof core.getBpeRankFromBytes !== 'function') return false;
  const original = core.bytePairMerge.bind(core);
  const withRanks = core as MergeCore;
  core.bytePairMerge = (piece: Uint8Array) => (piece.length > LONG_CHUNK_BYTES ? heapMerge(withRanks, piece) : original(piece));
  return true;
}

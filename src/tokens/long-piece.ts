/**
 * Exact BPE token count for one long pre-tokenizer piece in O(n log n).
 *
 * The reference merge (tiktoken `_byte_pair_merge`, gpt-tokenizer `bytePairMerge`) rescans every pair after every
 * merge, so a piece of n bytes costs O(n²): 8 KB of one letter takes ~50 ms and 64 KB takes seconds. This is the same
 * algorithm with the scan replaced by a binary heap keyed by (rank, start offset), the approach of tiktoken's
 * `_byte_pair_merge_large` (openai/tiktoken#195). The heap yields the lowest rank and, among equal ranks, the
 * leftmost pair, which is exactly the pair the scan picks, so the result is the same token count, not an estimate.
 */
import { MinHeap } from './min-heap';
import type { RankTable } from './rank-table';

const POSITION = 2 ** 32; // heap key = rank * 2^32 + start; ranks < 2^18 and starts < 2^32 keep it an exact double

/**
 * Counts the BPE tokens of one piece given as a binary string (one char per UTF-8 byte).
 * @param bytes the piece's UTF-8 bytes as a latin1 string.
 * @param table the vocabulary's ranks.
 * @returns the number of tokens the reference BPE produces for the piece.
 */
export function countLongPiece(bytes: string, table: RankTable): number {
  if (bytes.length <= 1) return bytes.length;
  return mergeByBuckets(bytes, table) ?? mergeByHeap(bytes, table);
}

/** Per-call merge state: a doubly linked list of parts over byte offsets. */
class Parts {
  readonly next: Int32Array; // start of the following part; n marks the end
  readonly prev: Int32Array;
  readonly id: Int32Array; // rank of the part starting here
  readonly pairRank: Int32Array; // rank of this part merged with the next, -1 when they do not merge
  readonly alive: Uint8Array;
  count: number;

  constructor(
    readonly bytes: string,
    readonly table: RankTable
  ) {
    const n = bytes.length;
    this.count = n;
    this.next = new Int32Array(n + 1);
    this.prev = new Int32Array(n + 1);
    this.id = new Int32Array(n);
    this.pairRank = new Int32Array(n);
    this.alive = new Uint8Array(n).fill(1);
    for (let i = 0; i <= n; i++) {
      this.next[i] = i + 1;
      this.prev[i] = i - 1;
    }
    for (let i = 0; i < n; i++) this.id[i] = table.byteRank[bytes.charCodeAt(i)]!;
    for (let i = 0; i < n - 1; i++) this.pairRank[i] = table.pairRank(this.id[i]!, this.id[i + 1]!, bytes, i, i + 2);
  }

  /** True when the pair at `i` is still current and has rank `r`. */
  isCurrent(i: number, r: number): boolean {
    return this.alive[i] === 1 && this.pairRank[i] === r;
  }

  /**
   * Merges the part at `i` (pair rank `r`) with the next one and re-ranks the two pairs that changed.
   * @param push called with (rank, start) for each new mergeable pair.
   */
  merge(i: number, r: number, push: (rank: number, start: number) => void): void {
    const n = this.bytes.length;
    const j = this.next[i]!;
    const k = this.next[j]!;
    this.alive[j] = 0;
    this.next[i] = k;
    if (k <= n) this.prev[k] = i;
    this.id[i] = r;
    this.count--;
    this.pairRank[i] = -1;
    if (k < n) {
      const r2 = this.table.pairRank(r, this.id[k]!, this.bytes, i, this.next[k]!);
      this.pairRank[i] = r2;
      if (r2 >= 0) push(r2, i);
    }
    if (i > 0) {
      const p = this.prev[i]!;
      const r3 = this.table.pairRank(this.id[p]!, r, this.bytes, p, k);
      this.pairRank[p] = r3;
      if (r3 >= 0) push(r3, p);
    }
  }
}

/**
 * Fast path. In a trained BPE vocabulary a token ranks after both of its parts, so every pair a merge creates ranks
 * above the merge that created it and the lowest rank never decreases. Ranks can then be taken in increasing order
 * from buckets, each bucket's starts in increasing order, which is the heap's order without a log n per step.
 * @returns the count, or undefined when a merge created a pair ranked at or below itself (the caller then runs the
 *   heap, which makes no such assumption).
 */
export function mergeByBuckets(bytes: string, table: RankTable): number | undefined {
  const parts = new Parts(bytes, table);
  const buckets = new Buckets();
  for (let i = 0; i < bytes.length - 1; i++) {
    const r = parts.pairRank[i]!;
    if (r >= 0) buckets.add(r, i);
  }
  let current = -1;
  let monotone = true;
  const push = (rank: number, start: number): void => {
    if (rank <= current) monotone = false;
    else buckets.add(rank, start);
  };
  for (;;) {
    const rank = buckets.lowest();
    if (rank === undefined) return parts.count;
    current = rank;
    for (const start of buckets.take(rank)) {
      if (!parts.isCurrent(start, rank)) continue;
      parts.merge(start, rank, push);
      if (!monotone) return undefined;
    }
  }
}

/** Starts grouped by rank, with a heap of the distinct ranks present. */
class Buckets {
  private readonly starts = new Map<number, number[]>();
  private readonly ranks = new MinHeap(64);

  add(rank: number, start: number): void {
    const list = this.starts.get(rank);
    if (list) list.push(start);
    else {
      this.starts.set(rank, [start]);
      this.ranks.push(rank);
    }
  }

  lowest(): number | undefined {
    return this.ranks.size > 0 ? this.ranks.peek() : undefined;
  }

  /** Removes the bucket for `rank` (the lowest) and returns its starts in increasing order. */
  take(rank: number): Int32Array {
    this.ranks.pop();
    const list = Int32Array.from(this.starts.get(rank)!);
    this.starts.delete(rank);
    return list.sort();
  }
}

/**
 * General path: a heap keyed by (rank, start), O(n log n), no assumption about the vocabulary. Exported for tests,
 * which check both paths against the reference.
 * @returns the token count of the piece (binary string, one char per byte).
 */
export function mergeByHeap(bytes: string, table: RankTable): number {
  const parts = new Parts(bytes, table);
  const heap = new MinHeap(bytes.length);
  const push = (rank: number, start: number): void => heap.push(rank * POSITION + start);
  for (let i = 0; i < bytes.length - 1; i++) {
    const r = parts.pairRank[i]!;
    if (r >= 0) push(r, i);
  }
  while (heap.size > 0) {
    const key = heap.pop();
    const r = Math.floor(key / POSITION);
    const i = key - r * POSITION;
    if (parts.isCurrent(i, r)) parts.merge(i, r, push);
  }
  return parts.count;
}

/**
 * A byte-keyed view of a BPE vocabulary for the long-piece merger. Keys are "binary strings" (one char per byte,
 * latin1), so a slice of a piece's bytes is looked up without allocating a Uint8Array or decoding UTF-8. Merges are
 * looked up by the ids of the two parts through a small direct-mapped cache, which avoids slicing and hashing a
 * string for the pairs that recur in a long run.
 */

/** One rank file entry as `gpt-tokenizer/bpeRanks/*` stores it: a UTF-8-safe token string or its raw bytes. */
export type RankEntry = string | number[];

// eslint-disable-next-line no-control-regex -- the ASCII range starts at NUL on purpose
const ASCII = /^[\x00-\x7f]*$/;
const NO_MERGE = -1;
const EMPTY = -2;
/** Slots in the pair cache (3 × 4 bytes each): 2^18 slots = 3 MB per vocabulary, allocated with the table. */
export const PAIR_CACHE_BITS = 18;

/** Ranks of a vocabulary, by bytes and by pair of token ids. */
export class RankTable {
  /** `bytes(token) → rank` keyed by latin1 binary strings. */
  readonly byBytes = new Map<string, number>();
  /** Rank of each single byte (every byte is a token in a byte-level BPE vocabulary). */
  readonly byteRank = new Int32Array(256);
  private readonly left = new Int32Array(1 << PAIR_CACHE_BITS).fill(EMPTY);
  private readonly right = new Int32Array(1 << PAIR_CACHE_BITS);
  private readonly merged = new Int32Array(1 << PAIR_CACHE_BITS);

  /**
   * @param entries a rank file (index = rank); array holes are skipped.
   * @throws Error when a single byte has no rank (the table is not a byte-level BPE vocabulary).
   */
  constructor(entries: readonly RankEntry[]) {
    entries.forEach((entry, rank) => {
      const key =
        typeof entry === 'string'
          ? ASCII.test(entry)
            ? entry // ASCII tokens are their own binary string
            : Buffer.from(entry, 'utf8').toString('latin1')
          : String.fromCharCode(...entry);
      this.byBytes.set(key, rank);
    });
    for (let b = 0; b < 256; b++) {
      const rank = this.byBytes.get(String.fromCharCode(b));
      if (rank === undefined) throw new Error(`rank table has no token for byte ${b}`);
      this.byteRank[b] = rank;
    }
  }

  /**
   * Rank of the token formed by two adjacent parts, or -1 when they do not merge.
   * @param a rank of the left part; @param b rank of the right part.
   * @param bytes the piece; @param start..end the two parts' byte range in it.
   */
  pairRank(a: number, b: number, bytes: string, start: number, end: number): number {
    const slot = Math.imul(a ^ Math.imul(b, 0x85ebca6b), 0x9e3779b1) >>> (32 - PAIR_CACHE_BITS);
    if (this.left[slot] === a && this.right[slot] === b) return this.merged[slot]!;
    const rank = this.byBytes.get(bytes.slice(start, end)) ?? NO_MERGE;
    this.left[slot] = a;
    this.right[slot] = b;
    this.merged[slot] = rank;
    return rank;
  }
}

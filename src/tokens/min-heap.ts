/**
 * A binary min-heap of doubles in a growable Float64Array: no boxing, no comparator calls. Used with keys that pack
 * (rank, position) into one exact double.
 */
export class MinHeap {
  private data: Float64Array;
  /** Values held now. */
  size = 0;

  /** @param capacity initial slots; the heap doubles when full. */
  constructor(capacity: number) {
    this.data = new Float64Array(Math.max(16, capacity));
  }

  /** Adds a value in O(log n). */
  push(value: number): void {
    if (this.size === this.data.length) {
      const grown = new Float64Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    const d = this.data;
    let i = this.size++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const pv = d[parent]!;
      if (pv <= value) break;
      d[i] = pv;
      i = parent;
    }
    d[i] = value;
  }

  /** The smallest value; the caller checks `size > 0` first. */
  peek(): number {
    return this.data[0]!;
  }

  /** Removes and returns the smallest value; the caller checks `size > 0` first. */
  pop(): number {
    const d = this.data;
    const top = d[0]!;
    const last = d[--this.size]!;
    const n = this.size;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      const c = r < n && d[r]! < d[l]! ? r : l;
      if (d[c]! >= last) break;
      d[i] = d[c]!;
      i = c;
    }
    if (n > 0) d[i] = last;
    return top;
  }
}

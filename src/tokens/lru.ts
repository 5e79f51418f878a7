/**
 * A bounded least-recently-used cache on a Map (insertion order = recency), and the content key it is used with.
 */
import { createHash } from 'node:crypto';

/** A Map that keeps at most `capacity` entries, evicting the least recently used. */
export class LruCache<V> {
  private readonly map = new Map<string, V>();
  hits = 0;
  misses = 0;

  /**
   * @param capacity maximum entries; 0 disables caching.
   * @throws RangeError when capacity is negative or not an integer.
   */
  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 0)
      throw new RangeError(`cache size must be an integer >= 0, got ${capacity}`);
  }

  /** Entries held now (never above `capacity`). */
  get size(): number {
    return this.map.size;
  }

  /** The cached value, marked most recently used; undefined on a miss. */
  get(key: string): V | undefined {
    const value = this.map.get(key);
    if (value === undefined) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    this.map.delete(key);
    this.map.set(key, value);
    return value;
  }

  /** Stores a value, evicting the least recently used entry when full. */
  set(key: string, value: V): void {
    if (this.capacity === 0) return;
    this.map.delete(key);
    if (this.map.size >= this.capacity) this.map.delete(this.map.keys().next().value!);
    this.map.set(key, value);
  }
}

/**
 * The cache key of a message: SHA-1 of its format and JSON. Hashing is O(bytes) and several times faster than
 * tokenizing, so a turn that adds one message costs the new message's bytes, not the history's tokens.
 */
export function messageKey(format: string, raw: unknown): string {
  return createHash('sha1')
    .update(format)
    .update('\0')
    .update(JSON.stringify(raw) ?? 'undefined')
    .digest('base64');
}

/**
 * Memoizing a pure function of one statement's text. Supersession compares every pair of ledger entries, so what is
 * read off one statement (its values, subject words, typed values) would otherwise be read again for each pair.
 */

/**
 * Wraps `fn` with a cache keyed by its text argument, emptied whenever it holds `limit` texts (a fold reads a few
 * hundred statements; the bound keeps a long-lived worker's memory flat).
 *
 * @param limit texts held before the cache is emptied. @default 4096
 * @returns the memoized function; its results are shared, so callers must not mutate them
 */
export function memoByText<T>(fn: (text: string) => T, limit = 4096): (text: string) => T {
  const cache = new Map<string, T>();
  return (text: string): T => {
    const hit = cache.get(text);
    if (hit !== undefined) return hit;
    if (cache.size >= limit) cache.clear();
    const value = fn(text);
    cache.set(text, value);
    return value;
  };
}

/**
 * What a fold does to the provider's prompt cache, estimated from counted tokens: the next request shares the folded
 * context's prefix up to the first element the fold changed, so that prefix stays cached, the rest of the old context
 * is invalidated, and the rest of the new one is written to the cache again.
 */

/** Tokens a fold keeps cached, writes and invalidates (counted estimates: providers report cache usage per request). */
export interface FoldCacheEffect {
  /** Tokens of the unchanged prefix (fixed tokens included): still served from the cache by the next request. */
  cachedTokens: number;
  /** Tokens of the folded context after that prefix: the next request sends them uncached and writes them. */
  writtenTokens: number;
  /** Tokens of the context before the fold after that prefix: cached before, of no use after. */
  invalidatedTokens: number;
  /** Always `estimate`: the fold precedes the request whose usage would say. */
  source: 'estimate';
}

/** @returns how many leading elements `before` and `after` share (the same objects, in order). */
export function sharedPrefixLength(before: readonly unknown[], after: readonly unknown[]): number {
  let k = 0;
  while (k < before.length && k < after.length && before[k] === after[k]) k++;
  return k;
}

/**
 * @param prefixTokens counted tokens of the shared prefix, fixed tokens included
 * @param tokensBefore counted tokens of the context before the fold
 * @param tokensAfter counted tokens of the folded context
 * @returns the fold's cache effect; every figure is ≥ 0.
 */
export function foldCacheEffect(prefixTokens: number, tokensBefore: number, tokensAfter: number): FoldCacheEffect {
  const cached = Math.max(0, Math.min(prefixTokens, tokensBefore, tokensAfter));
  return {
    cachedTokens: cached,
    writtenTokens: Math.max(0, tokensAfter - cached),
    invalidatedTokens: Math.max(0, tokensBefore - cached),
    source: 'estimate',
  };
}

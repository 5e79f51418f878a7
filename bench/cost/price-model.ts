/**
 * The price model every session-cost figure uses (stated in the report). Per million tokens, OpenAI gpt-4o list
 * prices; only ratios between strategies matter, and they do not depend on the absolute price.
 */
export const PRICE_MODEL = {
  /** Fresh (uncached) input, per million tokens; a cache write is billed at this list price. */
  inputPerM: 2.5,
  /** A cache read, as a share of the fresh input price. */
  cachedShare: 0.1,
  /** Output, per million tokens (summaries written by the summarizer). */
  outputPerM: 10,
  /** The provider caches only prefixes at least this long … */
  minCachedTokens: 1024,
  /** … in blocks of this many tokens. */
  cacheBlockTokens: 128,
} as const;

/** @returns the tokens of a request a provider cache serves, given the tokens of the prefix it shares with the last. */
export function cachedTokens(prefixTokens: number): number {
  if (prefixTokens < PRICE_MODEL.minCachedTokens) return 0;
  return Math.floor(prefixTokens / PRICE_MODEL.cacheBlockTokens) * PRICE_MODEL.cacheBlockTokens;
}

/** @returns dollars billed for one request's input. */
export function inputCost(inputTokens: number, cached: number): number {
  const fresh = inputTokens - cached;
  return (fresh * PRICE_MODEL.inputPerM + cached * PRICE_MODEL.inputPerM * PRICE_MODEL.cachedShare) / 1e6;
}

/**
 * @returns dollars for one summary, priced as if a model wrote it: reading the folded part at the fresh input price
 *   and writing the summary at the output price (the offline summarizer itself costs nothing).
 */
export function summaryCost(readTokens: number, writtenTokens: number): number {
  return (readTokens * PRICE_MODEL.inputPerM + writtenTokens * PRICE_MODEL.outputPerM) / 1e6;
}

/**
 * The provider price models every session-cost figure uses (stated in the report): list prices per million tokens,
 * and how each provider bills a prompt prefix it has cached. Only ratios between strategies under one model matter.
 *
 * - `anthropic` (Claude Sonnet 4.5, prompt caching with a 5-minute breakpoint at the end of each request): a cache
 *   read costs 0.1 × the input price, and the tokens after the cached prefix are written to the cache at 1.25 ×.
 * - `openai` (gpt-4o, automatic caching): cached input at 0.5 ×, no write premium, prefixes of ≥ 1024 tokens in
 *   128-token steps.
 * - `gemini` (Gemini 2.5 Flash, implicit caching): cached input at 0.25 × (the 75% discount), no write premium,
 *   prefixes of ≥ 1024 tokens.
 */
export interface PriceModel {
  /** Fresh (uncached) input, per million tokens. */
  inputPerM: number;
  /** A cache read, as a share of the input price. */
  cachedShare: number;
  /** An uncached input token written into the cache, as a share of the input price (1: no write premium). */
  writeShare: number;
  /** Output, per million tokens (summaries, priced as if a model wrote them). */
  outputPerM: number;
  /** The provider caches only prefixes at least this long … */
  minCachedTokens: number;
  /** … in steps of this many tokens. */
  cacheBlockTokens: number;
}

export const PRICE_MODELS = {
  anthropic: {
    inputPerM: 3,
    cachedShare: 0.1,
    writeShare: 1.25,
    outputPerM: 15,
    minCachedTokens: 1024,
    cacheBlockTokens: 1,
  },
  openai: {
    inputPerM: 2.5,
    cachedShare: 0.5,
    writeShare: 1,
    outputPerM: 10,
    minCachedTokens: 1024,
    cacheBlockTokens: 128,
  },
  gemini: {
    inputPerM: 0.3,
    cachedShare: 0.25,
    writeShare: 1,
    outputPerM: 2.5,
    minCachedTokens: 1024,
    cacheBlockTokens: 1,
  },
} as const satisfies Record<string, PriceModel>;

export type PriceModelName = keyof typeof PRICE_MODELS;

/** The model of the headline figures (README, goals): the one whose cache pricing rewards a stable prefix most. */
export const PRICE_MODEL: PriceModel = PRICE_MODELS.anthropic;

/** @returns the tokens of a request a provider cache serves, given the tokens of the prefix it shares with the last. */
export function cachedTokens(prefixTokens: number, model: PriceModel = PRICE_MODEL): number {
  if (prefixTokens < model.minCachedTokens) return 0;
  return Math.floor(prefixTokens / model.cacheBlockTokens) * model.cacheBlockTokens;
}

/** @returns dollars billed for one request's input: the cached part at the read price, the rest written. */
export function inputCost(inputTokens: number, cached: number, model: PriceModel = PRICE_MODEL): number {
  const fresh = inputTokens - cached;
  return (fresh * model.writeShare + cached * model.cachedShare) * (model.inputPerM / 1e6);
}

/**
 * @returns dollars for one summary, priced as if a model wrote it: reading the folded part at the fresh input price
 *   and writing the summary at the output price (the offline summarizer itself costs nothing).
 */
export function summaryCost(readTokens: number, writtenTokens: number, model: PriceModel = PRICE_MODEL): number {
  return (readTokens * model.inputPerM + writtenTokens * model.outputPerM) / 1e6;
}

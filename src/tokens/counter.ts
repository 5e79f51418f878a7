/**
 * `createTokenCounter`: the TokenCounter of docs/tokens.md for one model.
 */
import type { MessageFormat } from '../core/messages/types';
import { countText } from './count-text';
import { encodingForModel, type EncodingName } from './encoding-for-model';
import { TokenInputError } from './errors';
import { LruCache, messageKey } from './lru';
import { priceMessage } from './message-tokens';
import { priceTools } from './tool-tokens';
import { REPLY_PRIMING, TOOL_CONSTANTS_CL100K, TOOL_CONSTANTS_O200K } from './wire-constants';

/** Counts tokens for one model (docs/tokens.md). */
export interface TokenCounter {
  encoding: EncodingName;
  /** False when the model's vocabulary is not shipped and counts are o200k_base × safety factor. */
  exact: boolean;
  /** Raw tokens of a text, bounded worst case. */
  countText(text: string): number;
  /** One message including its per-message wire overhead. @throws TokenInputError on a malformed message. */
  countMessage(raw: unknown, format: MessageFormat): number;
  /** `countMessage` for each element. @throws TokenInputError naming the index of a malformed message. */
  countMessages(raws: unknown[], format: MessageFormat): number[];
  /** Tool schemas per cookbook §7 (0 for none). @throws TokenInputError on a malformed tool. */
  countTools(tools: unknown[]): number;
  /** Tokens that prime the reply, once per request (cookbook §6): 3. */
  replyPriming: number;
}

/** Options of {@link createTokenCounter}. */
export interface TokenCounterOptions {
  /** Model id as sent to the provider. */
  model: string;
  /** Multiplier for models whose vocabulary we do not ship. @default 1.1 (DEFAULT_SAFETY_FACTOR) */
  safetyFactor?: number;
  /** Per-message counts kept in the LRU cache. @default 10000 (DEFAULT_CACHE_SIZE) */
  cacheSize?: number;
  /**
   * A provider's own count of a text, when known (see `provider-count/`): a message whose every text is known is
   * priced with those counts and no safety factor; otherwise the estimate, not cached, so a count that arrives later
   * is used. @default none
   */
  knownText?: (text: string) => number | undefined;
}

/** Default LRU size: ~10k messages is a few long conversations' worth, at ~100 bytes per entry. */
export const DEFAULT_CACHE_SIZE = 10_000;

/** A TokenCounter that can also report its cache. */
export interface CachingTokenCounter extends TokenCounter {
  /** Entries, hits and misses of the per-message cache. */
  cacheStats(): { size: number; capacity: number; hits: number; misses: number };
}

/**
 * Creates the counter for `model`. The encoding module loads on the first count, not here.
 * @throws RangeError when `safetyFactor` < 1 or `cacheSize` is not a non-negative integer.
 */
export function createTokenCounter(options: TokenCounterOptions): CachingTokenCounter {
  const { encoding, exact, safetyFactor } = encodingForModel(options.model, options.safetyFactor);
  const cache = new LruCache<number>(options.cacheSize ?? DEFAULT_CACHE_SIZE);
  const raw = (text: string): number => countText(text, encoding);
  // Inexact models are scaled per message (and per text), rounding up so a sum of parts never under-counts.
  const scale = (n: number): number => (safetyFactor === 1 ? n : Math.ceil(n * safetyFactor));
  const toolConstants = encoding === 'cl100k_base' ? TOOL_CONSTANTS_CL100K : TOOL_CONSTANTS_O200K;

  const known = options.knownText;
  const countMessage = (message: unknown, format: MessageFormat): number => {
    // No hashing at all when caching is off (cacheSize 0).
    const key = cache.capacity > 0 ? messageKey(format, message) : undefined;
    const hit = key === undefined ? undefined : cache.get(key);
    if (hit !== undefined) return hit;
    let missing = false;
    const provided = known && priceMessage(message, format, (text) => known(text) ?? ((missing = true), 0));
    let n: number;
    if (provided && !missing) n = provided.envelope + provided.role + provided.body;
    else {
      const price = priceMessage(message, format, raw);
      n = scale(price.envelope + price.role + price.body);
    }
    // An estimate made while counts were expected is not kept: the count that arrives later must win.
    if (key !== undefined && !missing) cache.set(key, n);
    return n;
  };

  return {
    encoding,
    exact,
    replyPriming: REPLY_PRIMING,
    countText: (text) => scale(raw(text)),
    countMessage,
    countMessages: (raws, format) =>
      raws.map((m, i) => {
        try {
          return countMessage(m, format);
        } catch (err) {
          if (err instanceof TokenInputError) throw new TokenInputError(`messages[${i}]: ${err.message}`);
          throw err;
        }
      }),
    countTools: (tools) => scale(priceTools(tools, raw, toolConstants)),
    cacheStats: () => ({ size: cache.size, capacity: cache.capacity, hits: cache.hits, misses: cache.misses }),
  };
}

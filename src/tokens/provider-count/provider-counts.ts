/**
 * Provider-counted tokens for models without a public tokenizer (Claude, Gemini): every text the counter would price
 * in a new message (its content, tool-call names and arguments, tool output) is counted once by the provider's own
 * count endpoint (Anthropic `messages/count_tokens`, Gemini `countTokens`) and kept by its hash, so the synchronous
 * counter prices the message from the cache; framing and media stay priced by the counter's own rules. Called from
 * the `ingest` activity before it counts, never from the workflow; a text already counted costs no call. An endpoint
 * that keeps failing costs its bounded retries and then the estimate, never a failed step.
 */
import { createHash } from 'node:crypto';
import type { MessageFormat } from '../../core/messages/types';
import { LruCache } from '../lru';
import { priceMessage } from '../message-tokens';

/** Counts one text with a provider's endpoint. @throws whatever the transport throws */
export type CountText = (model: string, text: string) => Promise<number>;

/** Which endpoint counts a model's messages. */
export type CountProvider = 'anthropic' | 'gemini';

/** Options of {@link createProviderCounts}. */
export interface ProviderCountsOptions {
  /** The count endpoint of each provider that is configured. */
  endpoints: Partial<Record<CountProvider, CountText>>;
  /** Counted messages kept. @default 20000 */
  cacheSize?: number;
  /** Calls per text before the estimate is used. @default 3 */
  attempts?: number;
  /** Wait before the second attempt, doubling after, ms. @default 200 */
  backoffMs?: number;
  /** Counts in flight at once. @default 4 */
  concurrency?: number;
  /** Told once per failed text (after the last attempt), for the worker's log. */
  onFailure?: (provider: CountProvider, model: string, error: unknown) => void;
  /** @default setTimeout-based */
  sleep?: (ms: number) => Promise<void>;
}

/** Provider counts for the counters and the `ingest` activity. */
export interface ProviderCounts {
  /** Counts the texts of `raws` not yet counted, for models a configured endpoint counts. Never throws. */
  prefetch(model: string, format: MessageFormat, raws: readonly unknown[]): Promise<void>;
  /** The provider's count of one text, when known. */
  lookup(model: string, text: string): number | undefined;
  /** Calls made and texts counted, for tests and metrics. */
  stats(): { calls: number; counted: number; failed: number };
}

/** @returns the provider whose endpoint counts `model` (by family, after any `provider/` prefix), if any */
export function countProviderOf(model: string): CountProvider | undefined {
  const id = model.trim().toLowerCase().replace(/^.*\//, '');
  if (id.startsWith('claude')) return 'anthropic';
  if (id.startsWith('gemini')) return 'gemini';
  return undefined;
}

/** @returns every text the counter prices in `raw` (empty when it is malformed: the counter reports that) */
export function pricedTexts(raw: unknown, format: MessageFormat): string[] {
  const texts: string[] = [];
  try {
    priceMessage(raw, format, (text) => {
      texts.push(text);
      return 0;
    });
  } catch {
    return [];
  }
  return texts;
}

/**
 * Builds the provider counts.
 * @returns a {@link ProviderCounts}
 */
export function createProviderCounts(options: ProviderCountsOptions): ProviderCounts {
  const cache = new LruCache<number>(options.cacheSize ?? 20_000);
  const attempts = Math.max(1, options.attempts ?? 3);
  const backoff = options.backoffMs ?? 200;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((ok) => setTimeout(ok, ms)));
  const stats = { calls: 0, counted: 0, failed: 0 };
  const keyOf = (model: string, text: string): string =>
    `${model}\u0000${createHash('sha256').update(text).digest('base64url')}`;

  const countOne = async (
    provider: CountProvider,
    count: CountText,
    model: string,
    text: string
  ): Promise<number | undefined> => {
    let lastError: unknown;
    for (let n = 1; n <= attempts; n++) {
      stats.calls++;
      try {
        return await count(model, text);
      } catch (err) {
        lastError = err;
        if (n < attempts) await sleep(backoff * 2 ** (n - 1));
      }
    }
    stats.failed++;
    options.onFailure?.(provider, model, lastError);
    return undefined;
  };

  return {
    async prefetch(model, format, raws) {
      const provider = countProviderOf(model);
      const count = provider && options.endpoints[provider];
      if (!provider || !count) return;
      const todo = new Map<string, string>();
      for (const raw of raws) {
        for (const text of pricedTexts(raw, format)) {
          const key = keyOf(model, text);
          if (text === '') cache.set(key, 0);
          else if (!todo.has(key) && cache.get(key) === undefined) todo.set(key, text);
        }
      }
      const work = [...todo];
      const lanes = Math.max(1, options.concurrency ?? 4);
      let next = 0;
      await Promise.all(
        Array.from({ length: Math.min(lanes, work.length) }, async () => {
          while (next < work.length) {
            const [key, text] = work[next++]!;
            const n = await countOne(provider, count, model, text);
            if (n !== undefined) {
              cache.set(key, n);
              stats.counted++;
            }
          }
        })
      );
    },
    lookup(model, text) {
      return cache.get(keyOf(model, text));
    },
    stats: () => ({ ...stats }),
  };
}

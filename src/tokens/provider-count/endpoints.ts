/**
 * The count endpoints, through each provider's SDK: Anthropic `messages.countTokens` (the text as one user turn) and
 * Gemini `models.countTokens`. Each subtracts what the same request costs with a one-character text, counted once per
 * model, so the number is the text's own tokens; the message's wire overhead is the counter's. No client-side
 * retries: `createProviderCounts` retries a bounded number of times.
 */
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import type { CountText } from './provider-counts';

/** Where an endpoint is and how its key is read (at call time, never stored). */
export interface CountEndpointConfig {
  /** @default the SDK's (the provider's API) */
  baseURL?: string;
  apiKey: () => string;
  /** Per-request timeout, ms. @default 5000 */
  timeoutMs?: number;
}

/** Counts `text` minus a one-character request's count, the baseline memoised per model. */
function lessBaseline(count: (model: string, text: string) => Promise<number>): CountText {
  const baselines = new Map<string, Promise<number>>();
  return async (model, text) => {
    let baseline = baselines.get(model);
    if (!baseline) {
      baseline = count(model, '.').then((n) => n - 1);
      baselines.set(model, baseline);
      baseline.catch(() => baselines.delete(model));
    }
    const [total, base] = await Promise.all([count(model, text), baseline]);
    return Math.max(0, total - base);
  };
}

/** @returns Anthropic's count endpoint */
export function anthropicCountText(config: CountEndpointConfig): CountText {
  return lessBaseline(async (model, text) => {
    const client = new Anthropic({
      apiKey: config.apiKey(),
      ...(config.baseURL ? { baseURL: config.baseURL } : {}),
      maxRetries: 0,
      timeout: config.timeoutMs ?? 5000,
    });
    const res = await client.messages.countTokens({ model, messages: [{ role: 'user', content: text }] });
    return res.input_tokens;
  });
}

/** @returns Gemini's count endpoint */
export function geminiCountText(config: CountEndpointConfig): CountText {
  return lessBaseline(async (model, text) => {
    const client = new GoogleGenAI({
      apiKey: config.apiKey(),
      httpOptions: { ...(config.baseURL ? { baseUrl: config.baseURL } : {}), timeout: config.timeoutMs ?? 5000 },
    });
    const res = await client.models.countTokens({ model, contents: [{ role: 'user', parts: [{ text }] }] });
    return res.totalTokens ?? 0;
  });
}

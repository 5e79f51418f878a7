/**
 * The `openai` client of one summary call: no client-side retries (Temporal's retry policy owns retries) and a
 * request timeout.
 */
import OpenAI from 'openai';
import type { SummarizerConfig } from './types';

/** Default per-request timeout, ms. */
export const DEFAULT_TIMEOUT_MS = 120_000;

/**
 * Builds a client for one call.
 *
 * @returns an `OpenAI` client with `maxRetries: 0`
 */
export function createClient(config: SummarizerConfig, apiKey: string): OpenAI {
  return new OpenAI({
    apiKey,
    ...(config.baseURL ? { baseURL: config.baseURL } : {}),
    maxRetries: 0,
    timeout: config.timeoutMs ?? DEFAULT_TIMEOUT_MS,
  });
}

/**
 * The `counting:` section of temporal.yaml as the worker's provider counts: with mode `provider`, Claude and Gemini
 * texts are counted by the provider's count endpoint (keys read at call time from the named variables, never stored).
 */
import { readApiKey } from '../summarizers/api-key';
import { anthropicCountText, geminiCountText } from '../tokens/provider-count/endpoints';
import { createProviderCounts, type ProviderCounts } from '../tokens/provider-count/provider-counts';
import type { Config } from './schema';

/**
 * @param onFailure told when a text could not be counted after its retries (the estimate is used)
 * @returns the provider counts, or `undefined` for mode `estimate`
 */
export function providerCountsFromConfig(
  config: Config,
  env: NodeJS.ProcessEnv = process.env,
  onFailure?: (provider: string, model: string, error: unknown) => void
): ProviderCounts | undefined {
  const c = config.counting;
  if (c.mode !== 'provider') return undefined;
  const endpoint = (baseURL: string, apiKeyEnv: string) => ({
    ...(baseURL !== '' ? { baseURL } : {}),
    apiKey: () => readApiKey({ apiKeyEnv }, env),
    timeoutMs: c.timeoutMs,
  });
  return createProviderCounts({
    endpoints: {
      anthropic: anthropicCountText(endpoint(c.anthropicBaseURL, c.anthropicApiKeyEnv)),
      gemini: geminiCountText(endpoint(c.geminiBaseURL, c.geminiApiKeyEnv)),
    },
    ...(onFailure ? { onFailure } : {}),
  });
}

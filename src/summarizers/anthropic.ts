/**
 * `anthropic` mode: one `messages.create` call of the Anthropic Messages API through `@anthropic-ai/sdk`, with no
 * tools (the summary must be text), the agent's system prompt as `system`, `max_tokens` always set (the API requires
 * it) and thinking off unless the profile gives it a budget. Only `text` blocks make the summary; thinking blocks are
 * the model's own and are dropped.
 */
import Anthropic from '@anthropic-ai/sdk';
import type { Usage } from '../core/messages/types';
import type { Candidate } from './attempt-loop';
import type { AttemptInput } from './attempt-input';
import { DEFAULT_TIMEOUT_MS } from './client';
import { requiredOutputTokens, thinkingBudget } from './limits';
import { anthropicRequestFields } from './request-fields';
import { renderedInput } from './rendered-input';
import type { SummarizerConfig } from './types';

/** The stop reasons that mean the summary is not whole. */
export const INCOMPLETE: ReadonlySet<string> = new Set(['max_tokens', 'refusal', 'model_context_window_exceeded']);

/**
 * Builds the client of one call: no client-side retries (Temporal's retry policy owns them) and a request timeout.
 * @returns an `Anthropic` client
 */
export function createAnthropicClient(config: SummarizerConfig, apiKey: string): Anthropic {
  return new Anthropic({
    apiKey,
    ...(config.baseURL ? { baseURL: config.baseURL } : {}),
    maxRetries: 0,
    timeout: config.timeoutMs ?? DEFAULT_TIMEOUT_MS,
  });
}

interface AnthropicUsageLike {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
}

/**
 * Reads Messages API usage. Anthropic reports cache reads and writes apart from `input_tokens`; the shared shape counts
 * every prompt token as input, with the cache reads as `cachedInputTokens`.
 * @returns the usage, or `undefined` when none was sent
 */
export function anthropicUsage(u: AnthropicUsageLike | null | undefined): Usage | undefined {
  if (!u) return undefined;
  const cached = u.cache_read_input_tokens ?? 0;
  const inputTokens = (u.input_tokens ?? 0) + cached + (u.cache_creation_input_tokens ?? 0);
  const outputTokens = u.output_tokens ?? 0;
  return {
    inputTokens,
    outputTokens,
    totalTokens: inputTokens + outputTokens,
    ...(typeof u.cache_read_input_tokens === 'number' ? { cachedInputTokens: cached } : {}),
  };
}

/**
 * Makes one Anthropic summary attempt.
 * @returns the candidate (text of the text blocks, stop state, usage, id, block types)
 * @throws the SDK's errors (classified by the caller)
 */
export async function anthropicAttempt(
  client: Anthropic,
  { config, req, transcript, ctx }: AttemptInput
): Promise<Candidate> {
  const { system, text } = renderedInput(config, req, transcript);
  const thinking = thinkingBudget(config);
  const body: Anthropic.MessageCreateParamsNonStreaming = {
    model: config.model ?? req.model,
    max_tokens: requiredOutputTokens(config, req.budget),
    ...(system ? { system } : {}),
    messages: [{ role: 'user', content: text }],
    ...(thinking > 0 ? { thinking: { type: 'enabled', budget_tokens: thinking } } : {}),
    ...anthropicRequestFields(config.request),
  };
  const res = await client.messages.create(body, ctx.signal ? { signal: ctx.signal } : {});
  const blocks = (res.content ?? []) as { type?: string; text?: string }[];
  const summary = blocks
    .filter((b) => b.type === 'text' && typeof b.text === 'string')
    .map((b) => b.text)
    .join('');
  const usage = anthropicUsage(res.usage);
  const stop = res.stop_reason ?? '';
  return {
    text: summary,
    ...(INCOMPLETE.has(stop) ? { incompleteReason: stop } : {}),
    ...(usage ? { usage } : {}),
    ...(res.id ? { responseId: res.id } : {}),
    outputTypes: blocks.map((b) => (b.type === 'text' ? 'message' : (b.type ?? 'unknown'))),
  };
}

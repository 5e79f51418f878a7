/** Provider usage in the shared {@link Usage} shape, and its sum over attempts. */
import type { Usage } from '../core/messages/types';

interface ChatUsageLike {
  prompt_tokens?: number;
  completion_tokens?: number;
  total_tokens?: number;
  prompt_tokens_details?: { cached_tokens?: number | null } | null;
  completion_tokens_details?: { reasoning_tokens?: number | null } | null;
}

interface ResponsesUsageLike {
  input_tokens?: number;
  output_tokens?: number;
  total_tokens?: number;
  input_tokens_details?: { cached_tokens?: number | null } | null;
  output_tokens_details?: { reasoning_tokens?: number | null } | null;
}

function optional(name: keyof Usage, value: number | null | undefined): Partial<Usage> {
  return typeof value === 'number' ? { [name]: value } : {};
}

/**
 * Reads Chat Completions usage.
 *
 * @returns the usage, or `undefined` when the provider sent none
 */
export function chatUsage(u: ChatUsageLike | null | undefined): Usage | undefined {
  if (!u) return undefined;
  const inputTokens = u.prompt_tokens ?? 0;
  const outputTokens = u.completion_tokens ?? 0;
  return {
    inputTokens,
    outputTokens,
    totalTokens: u.total_tokens ?? inputTokens + outputTokens,
    ...optional('cachedInputTokens', u.prompt_tokens_details?.cached_tokens),
    ...optional('reasoningTokens', u.completion_tokens_details?.reasoning_tokens),
  };
}

/**
 * Reads Responses (and compaction) usage.
 *
 * @returns the usage, or `undefined` when the provider sent none
 */
export function responsesUsage(u: ResponsesUsageLike | null | undefined): Usage | undefined {
  if (!u) return undefined;
  const inputTokens = u.input_tokens ?? 0;
  const outputTokens = u.output_tokens ?? 0;
  return {
    inputTokens,
    outputTokens,
    totalTokens: u.total_tokens ?? inputTokens + outputTokens,
    ...optional('cachedInputTokens', u.input_tokens_details?.cached_tokens),
    ...optional('reasoningTokens', u.output_tokens_details?.reasoning_tokens),
  };
}

/**
 * Adds two usages field by field; an optional field is present when either side has it.
 *
 * @returns the sum (`undefined` only when both are)
 */
export function addUsage(a: Usage | undefined, b: Usage | undefined): Usage | undefined {
  if (!a) return b;
  if (!b) return a;
  const sumOpt = (k: 'cachedInputTokens' | 'reasoningTokens'): Partial<Usage> =>
    a[k] === undefined && b[k] === undefined ? {} : { [k]: (a[k] ?? 0) + (b[k] ?? 0) };
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    totalTokens: a.totalTokens + b.totalTokens,
    ...sumOpt('cachedInputTokens'),
    ...sumOpt('reasoningTokens'),
  };
}

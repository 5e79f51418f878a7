/**
 * `chat` mode: `chat.completions.create` against any OpenAI-compatible base URL, no tools (the summarizer must
 * answer in text), output limited to min(budget/2, 8192) unless configured.
 */
import type OpenAI from 'openai';
import { buildChatRequest } from '../core/fold/summary-request';
import { maxOutputTokens } from './limits';
import { chatRequestFields } from './request-fields';
import { requestInput } from './request-input';
import type { Candidate } from './attempt-loop';
import type { AttemptInput } from './attempt-input';
import { chatUsage } from './usage';
import type { SummarizerConfig } from './types';

/**
 * The output-limit field: OpenAI itself wants `max_completion_tokens` (its reasoning models reject the old field);
 * most other compatible servers (vLLM, Ollama, LM Studio) know `max_tokens`.
 *
 * @returns `config.maxTokensField`, else by host: `max_completion_tokens` for api.openai.com or no base URL
 */
export function maxTokensField(config: SummarizerConfig): 'max_tokens' | 'max_completion_tokens' {
  if (config.maxTokensField) return config.maxTokensField;
  if (!config.baseURL) return 'max_completion_tokens';
  return /^https?:\/\/api\.openai\.com(?:[/:]|$)/.test(config.baseURL) ? 'max_completion_tokens' : 'max_tokens';
}

/**
 * Makes one chat summary attempt.
 *
 * @returns the candidate (text, finish state, usage, id, output types)
 * @throws the client's errors (classified by the caller)
 */
export async function chatAttempt(client: OpenAI, { config, req, transcript, ctx }: AttemptInput): Promise<Candidate> {
  const messages = buildChatRequest(requestInput(config, req, transcript, 'rendered'));
  const limit = maxOutputTokens(config, req.budget);
  const body = {
    model: config.model ?? req.model,
    messages,
    ...(limit !== undefined ? { [maxTokensField(config)]: limit } : {}),
    ...chatRequestFields(config.request),
  } as unknown as OpenAI.ChatCompletionCreateParamsNonStreaming;
  const res = await client.chat.completions.create(body, ctx.signal ? { signal: ctx.signal } : {});
  const choice = res.choices?.[0];
  const content = choice?.message?.content ?? '';
  const outputTypes: string[] = [];
  if (content.trim()) outputTypes.push('message');
  for (const _ of choice?.message?.tool_calls ?? []) outputTypes.push('function_call');
  if (choice?.message?.refusal) outputTypes.push('refusal');
  const finish = choice?.finish_reason;
  const usage = chatUsage(res.usage);
  return {
    text: content,
    ...(finish === 'length' || finish === 'content_filter' ? { incompleteReason: finish } : {}),
    ...(usage ? { usage } : {}),
    ...(res.id ? { responseId: res.id } : {}),
    outputTypes,
  };
}

/**
 * `gemini` mode: one `models.generateContent` call of the Gemini API through `@google/genai`, with no tools, the
 * agent's system prompt as `systemInstruction`, `maxOutputTokens` set and thinking off (`thinkingBudget: 0`) unless
 * the profile gives it a budget. Thought parts are the model's own and never join the summary.
 */
import { GoogleGenAI } from '@google/genai';
import type { Usage } from '../core/messages/types';
import type { Candidate } from './attempt-loop';
import type { AttemptInput } from './attempt-input';
import { DEFAULT_TIMEOUT_MS } from './client';
import { requiredOutputTokens, thinkingBudget } from './limits';
import { geminiRequestFields } from './request-fields';
import { renderedInput } from './rendered-input';
import type { SummarizerConfig } from './types';

/** Finish reasons that mean the summary is not whole (cut off or blocked). */
const INCOMPLETE = new Set([
  'MAX_TOKENS',
  'SAFETY',
  'RECITATION',
  'BLOCKLIST',
  'PROHIBITED_CONTENT',
  'SPII',
  'MALFORMED_FUNCTION_CALL',
  'OTHER',
]);

/**
 * Builds the client of one call: the SDK retries nothing unless told to (Temporal's retry policy owns retries).
 * @returns a `GoogleGenAI` client for the Gemini Developer API
 */
export function createGeminiClient(config: SummarizerConfig, apiKey: string): GoogleGenAI {
  return new GoogleGenAI({
    apiKey,
    httpOptions: {
      ...(config.baseURL ? { baseUrl: config.baseURL } : {}),
      timeout: config.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    },
  });
}

interface GeminiUsageLike {
  promptTokenCount?: number;
  candidatesTokenCount?: number;
  totalTokenCount?: number;
  cachedContentTokenCount?: number;
  thoughtsTokenCount?: number;
}

/**
 * Reads Gemini usage metadata (thought tokens are billed as output).
 * @returns the usage, or `undefined` when none was sent
 */
export function geminiUsage(u: GeminiUsageLike | null | undefined): Usage | undefined {
  if (!u) return undefined;
  const inputTokens = u.promptTokenCount ?? 0;
  const outputTokens = (u.candidatesTokenCount ?? 0) + (u.thoughtsTokenCount ?? 0);
  return {
    inputTokens,
    outputTokens,
    totalTokens: u.totalTokenCount ?? inputTokens + outputTokens,
    ...(typeof u.cachedContentTokenCount === 'number' ? { cachedInputTokens: u.cachedContentTokenCount } : {}),
    ...(typeof u.thoughtsTokenCount === 'number' ? { reasoningTokens: u.thoughtsTokenCount } : {}),
  };
}

/**
 * Makes one Gemini summary attempt.
 * @returns the candidate (text of the non-thought text parts, finish state, usage, id, part kinds)
 * @throws the SDK's errors (classified by the caller)
 */
export async function geminiAttempt(
  client: GoogleGenAI,
  { config, req, transcript, ctx }: AttemptInput
): Promise<Candidate> {
  const { system, text } = renderedInput(config, req, transcript);
  const res = await client.models.generateContent({
    model: config.model ?? req.model,
    contents: [{ role: 'user', parts: [{ text }] }],
    config: {
      ...(system ? { systemInstruction: system } : {}),
      maxOutputTokens: requiredOutputTokens(config, req.budget),
      thinkingConfig: { thinkingBudget: thinkingBudget(config) },
      ...geminiRequestFields(config.request),
      ...(ctx.signal ? { abortSignal: ctx.signal } : {}),
    },
  });
  const candidate = res.candidates?.[0];
  const parts = candidate?.content?.parts ?? [];
  const summary = parts
    .filter((p) => typeof p.text === 'string' && p.thought !== true)
    .map((p) => p.text)
    .join('');
  const finish = candidate?.finishReason ? String(candidate.finishReason) : '';
  const usage = geminiUsage(res.usageMetadata);
  const blocked = !candidate && res.promptFeedback?.blockReason ? String(res.promptFeedback.blockReason) : '';
  return {
    text: summary,
    ...(INCOMPLETE.has(finish) ? { incompleteReason: finish } : blocked ? { incompleteReason: blocked } : {}),
    ...(usage ? { usage } : {}),
    ...(res.responseId ? { responseId: res.responseId } : {}),
    outputTypes: parts.map((p) => (p.thought ? 'thought' : typeof p.text === 'string' ? 'message' : 'part')),
  };
}

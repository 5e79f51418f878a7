/**
 * Request fields a profile may set on its summary calls (seed 002's `WithRequest`, allow-listed): sampling and
 * reasoning effort, each sent only by the modes whose API has it, in that API's own spelling. The output limit is
 * `maxOutputTokens`/`outputTokensCap`, the thinking budget `thinkingBudget`.
 */

/** Reasoning effort of the OpenAI reasoning models. */
export type ReasoningEffort = 'minimal' | 'low' | 'medium' | 'high';

/** The fields, as a profile sets them; an absent field is not sent. */
export interface RequestFields {
  /** Sampling temperature, 0 to 2 (Anthropic: 0 to 1). */
  temperature?: number;
  /** Nucleus sampling, 0 to 1. */
  topP?: number;
  /** `chat`: `reasoning_effort`; `responses`: `reasoning.effort`. */
  reasoningEffort?: ReasoningEffort;
}

/**
 * Which fields each mode (`SummarizerMode`) sends; the others are refused when the configuration is loaded.
 */
export const REQUEST_FIELDS_BY_MODE = {
  extractive: [],
  chat: ['temperature', 'topP', 'reasoningEffort'],
  responses: ['temperature', 'topP', 'reasoningEffort'],
  compact: [],
  anthropic: ['temperature', 'topP'],
  'anthropic-compact': [],
  gemini: ['temperature', 'topP'],
} as const satisfies Record<string, readonly (keyof RequestFields)[]>;

/** @returns the fields of a Chat Completions request. */
export function chatRequestFields(f: RequestFields | undefined): Record<string, unknown> {
  return {
    ...(f?.temperature !== undefined ? { temperature: f.temperature } : {}),
    ...(f?.topP !== undefined ? { top_p: f.topP } : {}),
    ...(f?.reasoningEffort !== undefined ? { reasoning_effort: f.reasoningEffort } : {}),
  };
}

/** @returns the fields of a Responses request. */
export function responsesRequestFields(f: RequestFields | undefined): Record<string, unknown> {
  return {
    ...(f?.temperature !== undefined ? { temperature: f.temperature } : {}),
    ...(f?.topP !== undefined ? { top_p: f.topP } : {}),
    ...(f?.reasoningEffort !== undefined ? { reasoning: { effort: f.reasoningEffort } } : {}),
  };
}

/** @returns the fields of an Anthropic Messages request. */
export function anthropicRequestFields(f: RequestFields | undefined): { temperature?: number; top_p?: number } {
  return {
    ...(f?.temperature !== undefined ? { temperature: f.temperature } : {}),
    ...(f?.topP !== undefined ? { top_p: f.topP } : {}),
  };
}

/** @returns the fields of a Gemini `generationConfig`. */
export function geminiRequestFields(f: RequestFields | undefined): { temperature?: number; topP?: number } {
  return {
    ...(f?.temperature !== undefined ? { temperature: f.temperature } : {}),
    ...(f?.topP !== undefined ? { topP: f.topP } : {}),
  };
}

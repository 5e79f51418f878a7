/**
 * Format detection. The formats overlap (a `{role, content}` element is valid chat and valid Responses), so the first
 * element that only one format can hold decides; a transcript with no such element is read as chat, which accepts
 * every ambiguous element the same way Responses would.
 */
import type { MessageFormat } from './types';
import { isRecord } from './validate';

const TYPED_MESSAGE_TYPES = new Set(['user', 'bot', 'context', 'instructions', 'activity']);
const RESPONSES_PART_TYPES = new Set(['input_text', 'output_text', 'input_image', 'input_file', 'refusal']);
/** Part types only the AI SDK uses (chat and Responses spell theirs with underscores). */
const AI_SDK_PART_TYPES = new Set([
  'tool-call',
  'tool-result',
  'tool-approval-request',
  'tool-approval-response',
  'reasoning',
  'image',
]);
/** Fields only a Gemini part holds. */
const GEMINI_PART_FIELDS = ['functionCall', 'functionResponse', 'inlineData', 'fileData', 'thoughtSignature'];

/**
 * Gemini or AI SDK evidence in an element with a role: top-level `parts` (Gemini, whose model role no other format
 * has; a user content counts when a part holds a Gemini-only field or a type-less text), or an AI SDK part type or
 * `providerOptions`.
 */
function geminiOrAiSdkVote(el: Record<string, unknown>): MessageFormat | undefined {
  if (Array.isArray(el.parts) && el.content === undefined) {
    if (el.role === 'model') return 'gemini';
    const geminiPart = (p: unknown): boolean =>
      isRecord(p) &&
      p.type === undefined &&
      (GEMINI_PART_FIELDS.some((f) => p[f] !== undefined) || typeof p.text === 'string');
    if (el.parts.some(geminiPart)) return 'gemini';
  }
  if (isRecord(el.providerOptions)) return 'ai-sdk';
  if (Array.isArray(el.content)) {
    for (const part of el.content) {
      if (isRecord(part) && (AI_SDK_PART_TYPES.has(part.type as string) || isRecord(part.providerOptions)))
        return 'ai-sdk';
    }
  }
  return undefined;
}

/** What one element says about the format, or undefined when it fits more than one. */
export function formatVote(el: unknown): MessageFormat | undefined {
  if (!isRecord(el)) return undefined;
  const type = el.type;
  if (typeof type === 'string') {
    if (el.role === undefined && TYPED_MESSAGE_TYPES.has(type)) return 'typed';
    // Both typed messages and Responses have `reasoning`; Responses puts its text in `summary` parts, typed messages in `text`.
    if (type === 'reasoning') return typeof el.text === 'string' && !Array.isArray(el.summary) ? 'typed' : 'responses';
    if (type === 'message' || type.endsWith('_call') || type.endsWith('_call_output') || type === 'compaction') {
      return 'responses';
    }
    if (el.role === undefined) return 'responses';
  }
  if (typeof el.role === 'string') {
    const other = geminiOrAiSdkVote(el);
    if (other) return other;
    if (el.role === 'tool' || el.role === 'function' || el.tool_calls !== undefined || el.tool_call_id !== undefined) {
      return 'chat';
    }
    if (Array.isArray(el.content)) {
      for (const part of el.content) {
        if (isRecord(part) && typeof part.type === 'string') {
          if (RESPONSES_PART_TYPES.has(part.type)) return 'responses';
          if (part.type === 'text' || part.type === 'image_url') return 'chat';
        }
      }
    }
  }
  return undefined;
}

/**
 * Detects the format of a transcript.
 * @returns the format the first decisive element indicates; `chat` when none is decisive (including an empty array).
 */
export function detectFormat(messages: readonly unknown[]): MessageFormat {
  for (const el of messages) {
    const v = formatVote(el);
    if (v) return v;
  }
  return 'chat';
}

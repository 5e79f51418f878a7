/**
 * Format detection. The formats overlap (a `{role, content}` element is valid chat and valid Responses), so the first
 * element that only one format can hold decides; a transcript with no such element is read as chat, which accepts
 * every ambiguous element the same way Responses would.
 */
import type { MessageFormat } from './types';
import { isRecord } from './validate';

const TYPED_MESSAGE_TYPES = new Set(['user', 'bot', 'context', 'instructions', 'activity']);
const RESPONSES_PART_TYPES = new Set(['input_text', 'output_text', 'input_image', 'input_file', 'refusal']);

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

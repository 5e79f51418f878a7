/**
 * Text helpers shared by the adapters: reading the text of string-or-parts content and writing a replacement text
 * back while leaving non-text parts (images, files) where they were.
 */
import { SUMMARY_MARKER } from './summary-marker';
import { isRecord } from './validate';
import type { SummaryMeta } from './format-adapter';
import type { ToolCall } from './types';

/** Part types that carry prose in `text`, across chat and Responses content arrays. */
const TEXT_PARTS = new Set(['text', 'input_text', 'output_text', 'summary_text', 'reasoning_text']);

/** True for a content part whose prose is in `text`. */
export function isTextPart(part: unknown): part is Record<string, unknown> & { text: string } {
  return (
    isRecord(part) &&
    typeof part.text === 'string' &&
    (part.type === undefined || (typeof part.type === 'string' && TEXT_PARTS.has(part.type)))
  );
}

/**
 * The prose of a content value: a string as is; an array's text parts (and refusals) joined by newlines; otherwise ''.
 */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const texts: string[] = [];
  for (const part of content) {
    if (isTextPart(part)) texts.push(part.text);
    else if (isRecord(part) && typeof part.refusal === 'string') texts.push(part.refusal);
  }
  return texts.join('\n');
}

/**
 * A content value with its prose replaced by `text`: a string becomes `text`; in an array the first text part takes
 * `text`, later text parts are dropped and other parts stay in place; anything else becomes `text`.
 */
export function replaceContentText(content: unknown, text: string): unknown {
  if (!Array.isArray(content)) return text;
  const out: unknown[] = [];
  let placed = false;
  for (const part of content) {
    if (!isTextPart(part)) out.push(part);
    else if (!placed) {
      out.push({ ...part, text });
      placed = true;
    }
  }
  if (!placed) out.unshift({ type: 'text', text });
  return out;
}

/** The text of a summary element in the OpenAI formats: the marker, what it replaced, then the summary. */
export function markedSummaryText(text: string, meta: SummaryMeta): string {
  return `${SUMMARY_MARKER}: ${meta.droppedCount} earlier item(s) folded]\n\n${text}`;
}

/** A summary as a user message of one text part (Anthropic, AI SDK). */
export function markedSummaryTextPart(text: string, meta: SummaryMeta): { role: 'user'; content: unknown[] } {
  return { role: 'user', content: [{ type: 'text', text: markedSummaryText(text, meta) }] };
}

/** True when a user message's text marks it as a summary this engine wrote. */
export function isMarkedSummary(text: string): boolean {
  return text.startsWith(SUMMARY_MARKER);
}

/** The deterministic output of a synthetic result for a call that was never run. */
export function notRunText(call: ToolCall): string {
  return `[not run] The call to ${call.name || 'the tool'} (${call.id}) was not executed, so it has no output.`;
}

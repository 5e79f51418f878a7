/**
 * Format detection, from unambiguous evidence only. The formats overlap (a `{role, content}` element is valid chat,
 * Responses and Anthropic input, and reads the same in each), so only an element that one format alone can hold
 * votes; a transcript with no such element is read as chat, which reads every ambiguous element as the others would.
 * Two elements voting for different formats make the transcript refused: it is never read one way when half of it
 * is another.
 */
import { isAnthropicBlock } from './anthropic';
import type { MessageFormat } from './types';
import { TranscriptValidationError, isRecord } from './validate';

const TYPED_MESSAGE_TYPES = new Set(['user', 'bot', 'context', 'instructions', 'activity']);
const RESPONSES_PART_TYPES = new Set(['input_text', 'output_text', 'input_image', 'input_file', 'refusal']);
const CHAT_PART_TYPES = new Set(['image_url', 'input_audio']);

/** A format's evidence in one element: the format, and the shape that decided it (for error messages). */
export interface FormatEvidence {
  format: MessageFormat;
  shape: string;
}

/** What one element says about the format, with the shape found, or undefined when it fits more than one. */
export function formatEvidence(el: unknown): FormatEvidence | undefined {
  if (!isRecord(el)) return undefined;
  const type = el.type;
  const is = (format: MessageFormat, shape: string): FormatEvidence => ({ format, shape });
  if (typeof type === 'string') {
    if (el.role === undefined && TYPED_MESSAGE_TYPES.has(type)) return is('typed', `a typed message of type '${type}'`);
    // Both typed messages and Responses have `reasoning`; Responses puts its text in `summary` parts, typed messages in `text`.
    if (type === 'reasoning') {
      return typeof el.text === 'string' && !Array.isArray(el.summary)
        ? is('typed', "a typed 'reasoning' message")
        : is('responses', "a Responses 'reasoning' item");
    }
    if (type === 'message' || type.endsWith('_call') || type.endsWith('_call_output') || type === 'compaction') {
      return is('responses', `a Responses '${type}' item`);
    }
    // An unknown type with a `text` may be a typed message's unknown type as well as a Responses item: no vote.
    if (el.role === undefined && typeof el.text !== 'string') return is('responses', `a Responses '${type}' item`);
  }
  if (typeof el.role !== 'string') return undefined;
  if (el.role === 'tool' || el.role === 'function') return is('chat', `a chat '${el.role}' message`);
  if (el.tool_calls !== undefined) return is('chat', "a chat message with 'tool_calls'");
  if (el.tool_call_id !== undefined) return is('chat', "a chat message with 'tool_call_id'");
  if (Array.isArray(el.content)) {
    for (const part of el.content) {
      if (!isRecord(part) || typeof part.type !== 'string') continue;
      if (RESPONSES_PART_TYPES.has(part.type))
        return is('responses', `a '${el.role}' message with a '${part.type}' part`);
      if (CHAT_PART_TYPES.has(part.type)) return is('chat', `a '${el.role}' message with a chat '${part.type}' part`);
      if (isAnthropicBlock(part))
        return is('anthropic', `a '${el.role}' message with an Anthropic '${part.type}' block`);
    }
  }
  return undefined;
}

/** What one element says about the format, or undefined when it fits more than one. */
export function formatVote(el: unknown): MessageFormat | undefined {
  return formatEvidence(el)?.format;
}

/**
 * Detects the format of a transcript.
 * @returns the format the decisive elements agree on; `chat` when none is decisive (including an empty array).
 * @throws TranscriptValidationError (`format-conflict`) naming the first element whose shape belongs to another
 *   format than an earlier decisive element's.
 */
export function detectFormat(messages: readonly unknown[]): MessageFormat {
  let first: (FormatEvidence & { index: number }) | undefined;
  messages.forEach((el, index) => {
    const e = formatEvidence(el);
    if (!e) return;
    if (!first) first = { ...e, index };
    else if (e.format !== first.format)
      throw conflict(index, e, first.format, `message ${first.index} is ${first.shape}`);
  });
  return first?.format ?? 'chat';
}

/**
 * Refuses elements of another format than `format` (a conversation never mixes formats; the chat → Responses upgrade
 * is decided before, see `format-upgrade.ts`).
 * @param offset the index of `messages[0]` in the transcript, for the error message.
 * @throws TranscriptValidationError (`format-conflict`) naming the first such element and its shape.
 */
export function checkFormatOf(messages: readonly unknown[], format: MessageFormat, offset = 0): void {
  messages.forEach((el, i) => {
    const e = formatEvidence(el);
    if (e && e.format !== format) throw conflict(offset + i, e, format, `the transcript's format is '${format}'`);
  });
}

function conflict(index: number, e: FormatEvidence, other: MessageFormat, why: string): TranscriptValidationError {
  return new TranscriptValidationError(
    index,
    `${e.shape} is '${e.format}' input, but ${why}; one conversation holds one format (give it with the 'format' option or --format)`,
    'format-conflict'
  );
}

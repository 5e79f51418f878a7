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
/** Part types only the AI SDK uses (chat and Responses spell theirs with underscores; its image part has `image`). */
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
 * `providerOptions`. Read before the chat rules, since an AI SDK `tool` message has chat's role.
 */
function geminiOrAiSdkEvidence(el: Record<string, unknown>, role: string): FormatEvidence | undefined {
  if (Array.isArray(el.parts) && el.content === undefined) {
    if (role === 'model') return { format: 'gemini', shape: "a Gemini 'model' content" };
    for (const p of el.parts) {
      if (!isRecord(p) || p.type !== undefined) continue;
      const field = GEMINI_PART_FIELDS.find((f) => p[f] !== undefined);
      if (field) return { format: 'gemini', shape: `a '${role}' content with a Gemini '${field}' part` };
      if (typeof p.text === 'string') return { format: 'gemini', shape: `a '${role}' content with a Gemini text part` };
    }
  }
  if (isRecord(el.providerOptions))
    return { format: 'ai-sdk', shape: `an AI SDK '${role}' message with 'providerOptions'` };
  if (!Array.isArray(el.content)) return undefined;
  for (const part of el.content) {
    if (!isRecord(part) || isAnthropicBlock(part)) continue;
    if (AI_SDK_PART_TYPES.has(part.type as string) && (part.type !== 'image' || part.image !== undefined))
      return { format: 'ai-sdk', shape: `a '${role}' message with an AI SDK '${String(part.type)}' part` };
    if (isRecord(part.providerOptions))
      return { format: 'ai-sdk', shape: `a '${role}' message with an AI SDK part holding 'providerOptions'` };
  }
  return undefined;
}

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
  const other = geminiOrAiSdkEvidence(el, el.role);
  if (other) return other;
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

/**
 * Per-message pricing for the wire formats (Gemini: `gemini-tokens.ts`, AI SDK: `ai-sdk-tokens.ts`). A message costs its envelope (cookbook §6: 3 per message, +1 per
 * `name`), its role's tokens, and the tokens of everything it carries: content text, tool-call names and arguments,
 * tool-result output, reasoning summaries, and, for what we do not model field by field, its rendered JSON (typed messages:
 * "leaving a field out is how a conversation overruns its window while the estimate says there is room").
 */
import { formatNamed } from '../core/messages/format-name';
import type { MessageFormat } from '../core/messages/types';
import { TokenInputError } from './errors';
import { priceAiSdkMessage } from './ai-sdk-tokens';
import { anthropicContentTokens } from './anthropic-tokens';
import { priceGeminiContent } from './gemini-tokens';
import { priceMediaPart } from './media-tokens';
import { TOKENS_PER_MESSAGE, TOKENS_PER_NAME } from './wire-constants';

/** Counts the raw tokens of a text (no overhead). */
export type TextCount = (text: string) => number;

/** A message's price in parts; the message's count is their sum. */
export interface MessagePrice {
  /** Framing: 3 per message, +1 when it has a `name`. */
  envelope: number;
  /** Tokens of the role (chat/responses `role`, typed-message `type`). */
  role: number;
  /** Tokens of everything the message carries. */
  body: number;
}

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const json = (v: unknown): string => (typeof v === 'string' ? v : (JSON.stringify(v) ?? ''));

/**
 * Prices one message in its wire format.
 * @returns envelope, role and body tokens (raw, before any safety factor).
 * @throws TokenInputError when the message is not an object, or a field the format requires has the wrong type.
 */
export function priceMessage(raw: unknown, format: MessageFormat, count: TextCount): MessagePrice {
  if (!isObj(raw)) throw new TokenInputError(`expected a message object, got ${raw === null ? 'null' : typeof raw}`);
  switch (formatNamed(format)) {
    case 'chat':
      return priceChat(raw, count);
    case 'responses':
      return priceResponsesItem(raw, count);
    case 'typed':
      return priceTypedMessage(raw, count);
    case 'anthropic':
      return priceAnthropicMessage(raw, count);
    case 'gemini':
      return priceGeminiContent(raw, count);
    case 'ai-sdk':
      return priceAiSdkMessage(raw, count);
    default:
      throw new TokenInputError(`unknown message format '${String(format)}'`);
  }
}

/** Text parts by their text, media parts by the media rules (`media-tokens.ts`), anything else by its rendered JSON. */
function priceContent(content: unknown, count: TextCount): number {
  if (content === undefined || content === null) return 0;
  if (typeof content === 'string') return count(content);
  if (!Array.isArray(content)) return count(json(content));
  let total = 0;
  for (const part of content) {
    if (typeof part === 'string') total += count(part);
    else if (!isObj(part)) total += count(json(part));
    else if (typeof part.text === 'string')
      total += count(part.text); // text, input_text, output_text, …
    else if (typeof part.refusal === 'string') total += count(part.refusal);
    else total += priceMediaPart(part) ?? count(json(part));
  }
  return total;
}

/** Cookbook §6 for Chat Completions, extended to tool calls (name + arguments) and tool results (content). */
function priceChat(m: Obj, count: TextCount): MessagePrice {
  const role = str(m.role);
  if (role === undefined) throw new TokenInputError(`chat message needs a string 'role'`);
  const name = str(m.name);
  let body = priceContent(m.content, count) + (name === undefined ? 0 : count(name));
  if (typeof m.refusal === 'string') body += count(m.refusal);
  if (m.tool_calls !== undefined && m.tool_calls !== null) {
    if (!Array.isArray(m.tool_calls)) throw new TokenInputError(`chat message 'tool_calls' must be an array`);
    m.tool_calls.forEach((call, i) => {
      if (!isObj(call)) throw new TokenInputError(`chat message tool_calls[${i}] must be an object`);
      const fn = isObj(call.function) ? call.function : isObj(call.custom) ? call.custom : undefined;
      body += fn ? count(str(fn.name) ?? '') + count(json(fn.arguments ?? fn.input ?? '')) : count(json(call));
    });
  }
  if (isObj(m.function_call))
    body += count(str(m.function_call.name) ?? '') + count(json(m.function_call.arguments ?? ''));
  return { envelope: TOKENS_PER_MESSAGE + (name === undefined ? 0 : TOKENS_PER_NAME), role: count(role), body };
}

/**
 * Responses input items. There is no published formula; we use the chat envelope per item and price what each
 * item carries: message content; function_call name + arguments; *_output output; reasoning summary text (the
 * encrypted reasoning itself is not visible to us); compaction items by their encrypted content; unknown items as
 * rendered JSON.
 */
function priceResponsesItem(item: Obj, count: TextCount): MessagePrice {
  const type = str(item.type) ?? (item.role !== undefined ? 'message' : undefined);
  const envelope = TOKENS_PER_MESSAGE;
  switch (type) {
    case 'message': {
      const role = str(item.role);
      if (role === undefined) throw new TokenInputError(`responses message item needs a string 'role'`);
      return { envelope, role: count(role), body: priceContent(item.content, count) };
    }
    case 'function_call':
      return { envelope, role: 0, body: count(str(item.name) ?? '') + count(json(item.arguments ?? '')) };
    case 'custom_tool_call':
      return { envelope, role: 0, body: count(str(item.name) ?? '') + count(json(item.input ?? '')) };
    case 'function_call_output':
    case 'custom_tool_call_output':
      return { envelope, role: 0, body: priceContent(item.output, count) };
    case 'reasoning': {
      let body = 0;
      for (const list of [item.summary, item.content]) {
        if (Array.isArray(list)) for (const part of list) body += isObj(part) ? count(str(part.text) ?? '') : 0;
      }
      return { envelope, role: 0, body };
    }
    case 'compaction':
      return { envelope, role: 0, body: count(str(item.encrypted_content) ?? json(item)) };
    default:
      return { envelope, role: 0, body: count(json(item)) };
  }
}

/** Typed messages (format `'typed'`): `type` priced like a role, `text`, then `payload` and `meta` as rendered JSON (the typed-message pricing rule). */
function priceTypedMessage(m: Obj, count: TextCount): MessagePrice {
  const type = str(m.type);
  if (type === undefined) throw new TokenInputError(`typed message needs a string 'type'`);
  if (m.text !== undefined && typeof m.text !== 'string')
    throw new TokenInputError(`typed message 'text' must be a string`);
  let body = count(str(m.text) ?? '');
  if (m.payload !== undefined && m.payload !== null) body += count(json(m.payload));
  if (m.meta !== undefined && m.meta !== null) body += count(json(m.meta));
  return { envelope: TOKENS_PER_MESSAGE, role: count(type), body };
}

/** Anthropic messages: the chat envelope (no published framing), the role, and every block (`anthropic-tokens.ts`). */
function priceAnthropicMessage(m: Obj, count: TextCount): MessagePrice {
  const role = str(m.role);
  if (role === undefined) throw new TokenInputError(`anthropic message needs a string 'role'`);
  return { envelope: TOKENS_PER_MESSAGE, role: count(role), body: anthropicContentTokens(m.content, count) };
}

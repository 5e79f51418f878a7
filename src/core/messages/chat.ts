/**
 * OpenAI Chat Completions messages: `system`, `developer`, `user` (string or parts), `assistant` (optionally with
 * `tool_calls`), `tool`. The legacy `function` role passes through as role `other`.
 */
import type { FormatAdapter } from './format-adapter';
import { contentText, isMarkedSummary, markedSummaryText, notRunText, replaceContentText } from './text';
import type { Item, ItemRole, ToolCall } from './types';
import { TranscriptValidationError, describe, expectRecord, isRecord, optionalString, requireString } from './validate';

/** A chat message as far as this engine reads it; every other field is carried along untouched. */
export type ChatMessage = Record<string, unknown> & { role: string };

/**
 * Reads an assistant message's `tool_calls`.
 * @throws TranscriptValidationError on a non-array, a call without id/name, or non-string arguments.
 */
function readToolCalls(msg: Record<string, unknown>, index: number): ToolCall[] {
  const raw = msg.tool_calls;
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) {
    throw new TranscriptValidationError(
      index,
      `field 'tool_calls' must be an array, found ${describe(raw)}`,
      'wrong-type'
    );
  }
  return raw.map((call: unknown, c) => {
    if (!isRecord(call)) {
      throw new TranscriptValidationError(index, `tool_calls[${c}] must be an object`, 'wrong-type');
    }
    const id = requireString(call, 'id', index, `tool_calls[${c}]`);
    // Custom (free-form) tools carry `custom: {name, input}` instead of `function: {name, arguments}`.
    const fnKey = isRecord(call.custom) && !isRecord(call.function) ? 'custom' : 'function';
    const fn = call[fnKey];
    if (!isRecord(fn)) {
      throw new TranscriptValidationError(index, `tool_calls[${c}].${fnKey} must be an object`, 'wrong-type');
    }
    const name = requireString(fn, 'name', index, `tool_calls[${c}].${fnKey}`);
    const argField = fnKey === 'custom' ? 'input' : 'arguments';
    const args = fn[argField];
    if (typeof args !== 'string') {
      throw new TranscriptValidationError(
        index,
        `tool_calls[${c}].${fnKey}.${argField} must be a JSON string, found ${describe(args)}`,
        'arguments-not-string'
      );
    }
    return { id, name, arguments: args };
  });
}

/** Checks that `content` is a string, an array of parts, or null/absent where allowed. */
function checkContent(msg: Record<string, unknown>, index: number, nullable: boolean): void {
  const c = msg.content;
  if (typeof c === 'string' || Array.isArray(c) || ((c === undefined || c === null) && nullable)) return;
  throw new TranscriptValidationError(
    index,
    `field 'content' must be a string or an array of parts, found ${describe(c)}`,
    'wrong-type'
  );
}

/** The Chat Completions adapter. */
export const chatAdapter: FormatAdapter<ChatMessage> = {
  format: 'chat',

  toItem(raw: unknown, index: number): Item<ChatMessage> {
    const msg = expectRecord(raw, index);
    const roleValue = msg.role;
    if (roleValue === undefined) throw new TranscriptValidationError(index, "missing field 'role'", 'missing-role');
    if (typeof roleValue !== 'string') {
      throw new TranscriptValidationError(
        index,
        `field 'role' must be a string, found ${describe(roleValue)}`,
        'wrong-type'
      );
    }
    optionalString(msg, 'name', index);
    const base = { index, calls: [] as ToolCall[], turnStart: false, raw: msg as ChatMessage };
    switch (roleValue) {
      case 'system':
      case 'developer':
        checkContent(msg, index, false);
        return { ...base, role: 'instructions', text: contentText(msg.content) };
      case 'user': {
        checkContent(msg, index, false);
        const text = contentText(msg.content);
        const role: ItemRole = isMarkedSummary(text) ? 'summary' : 'user';
        return { ...base, role, turnStart: role === 'user', text };
      }
      case 'assistant':
        checkContent(msg, index, true);
        return { ...base, role: 'assistant', calls: readToolCalls(msg, index), text: contentText(msg.content) };
      case 'tool': {
        checkContent(msg, index, false);
        const callId = requireString(msg, 'tool_call_id', index);
        return { ...base, role: 'tool', resultFor: callId, text: contentText(msg.content) };
      }
      case 'function':
        return { ...base, role: 'other', text: contentText(msg.content) };
      default:
        throw new TranscriptValidationError(index, `unknown role '${roleValue}'`, 'unknown-role');
    }
  },

  withToolOutput(raw, text) {
    return { ...raw, content: replaceContentText(raw.content, text) };
  },

  withText(raw, text) {
    return { ...raw, content: replaceContentText(raw.content, text) };
  },

  summaryItem(text, meta) {
    return { role: 'user', content: markedSummaryText(text, meta) };
  },

  notRunResult(call) {
    return { role: 'tool', tool_call_id: call.id, content: notRunText(call) };
  },
};

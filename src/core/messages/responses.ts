/**
 * OpenAI Responses input items: `message` (roles user/assistant/system/developer, also the type-less "easy" form),
 * `function_call`, `function_call_output`, other `*_call` / `*_call_output` pairs that carry a `call_id`
 * (custom tools, computer use, local shell), `reasoning`, `compaction` (role summary). Any other item type passes
 * through untouched as role `other`.
 */
import type { FormatAdapter } from './format-adapter';
import { contentText, isMarkedSummary, markedSummaryText, notRunText, replaceContentText } from './text';
import type { Item, ItemRole, ToolCall } from './types';
import { TranscriptValidationError, describe, expectRecord, isRecord, optionalString, requireString } from './validate';

/** A Responses input item as far as this engine reads it; other fields are carried along untouched. */
export type ResponsesItem = Record<string, unknown>;

const MESSAGE_ROLES: Record<string, ItemRole> = {
  user: 'user',
  assistant: 'assistant',
  system: 'instructions',
  developer: 'instructions',
};

/** The text of a call result's `output` (a string, or parts with text). */
function outputText(output: unknown): string {
  return contentText(output);
}

/** Reads a `message` item (or a type-less item with a role). */
function readMessage(item: Record<string, unknown>, index: number): Item<ResponsesItem> {
  const role = item.role;
  if (role === undefined) throw new TranscriptValidationError(index, "missing field 'role'", 'missing-role');
  if (typeof role !== 'string') {
    throw new TranscriptValidationError(index, `field 'role' must be a string, found ${describe(role)}`, 'wrong-type');
  }
  const mapped = MESSAGE_ROLES[role];
  if (!mapped) throw new TranscriptValidationError(index, `unknown role '${role}'`, 'unknown-role');
  const c = item.content;
  if (typeof c !== 'string' && !Array.isArray(c)) {
    throw new TranscriptValidationError(
      index,
      `field 'content' must be a string or an array of parts, found ${describe(c)}`,
      'wrong-type'
    );
  }
  const text = contentText(c);
  const finalRole: ItemRole = mapped === 'user' && isMarkedSummary(text) ? 'summary' : mapped;
  return {
    index,
    role: finalRole,
    turnStart: finalRole === 'user',
    calls: [],
    text,
    ...idOf(item, index),
    raw: item,
  };
}

/** The item's own `id`, when it has one. */
function idOf(item: Record<string, unknown>, index: number): { id?: string } {
  const id = optionalString(item, 'id', index, true);
  return id === undefined ? {} : { id };
}

/** Reads a call item (`function_call`, `custom_tool_call`, …). */
function readCall(item: Record<string, unknown>, type: string, index: number): Item<ResponsesItem> {
  const callId = requireString(item, 'call_id', index);
  const argField = type === 'function_call' ? 'arguments' : type === 'custom_tool_call' ? 'input' : undefined;
  let args = '';
  if (argField !== undefined) {
    const value = item[argField];
    if (typeof value !== 'string') {
      throw new TranscriptValidationError(
        index,
        `field '${argField}' must be a JSON string, found ${describe(value)}`,
        'arguments-not-string'
      );
    }
    args = value;
  } else if (item.action !== undefined) {
    args = JSON.stringify(item.action);
  }
  const name = type === 'function_call' || type === 'custom_tool_call' ? requireString(item, 'name', index) : type;
  const call: ToolCall = { id: callId, name, arguments: args, kind: type };
  return { index, role: 'assistant', turnStart: false, calls: [call], text: '', ...idOf(item, index), raw: item };
}

/** A copy of a call output item with its `output` replaced (parts keep their non-text members). */
function withToolOutput(raw: ResponsesItem, text: string): ResponsesItem {
  return { ...raw, output: Array.isArray(raw.output) ? replaceContentText(raw.output, text) : text };
}

/** The Responses adapter. */
export const responsesAdapter: FormatAdapter<ResponsesItem> = {
  format: 'responses',

  toItem(raw: unknown, index: number): Item<ResponsesItem> {
    const item = expectRecord(raw, index);
    const type = item.type;
    if (type === undefined) return readMessage(item, index);
    if (typeof type !== 'string') {
      throw new TranscriptValidationError(
        index,
        `field 'type' must be a string, found ${describe(type)}`,
        'wrong-type'
      );
    }
    if (type === 'message') return readMessage(item, index);
    if (type === 'reasoning') {
      const summary = Array.isArray(item.summary) ? item.summary : [];
      return {
        index,
        role: 'reasoning',
        turnStart: false,
        calls: [],
        text: contentText(summary),
        ...idOf(item, index),
        raw: item,
      };
    }
    if (type === 'compaction') {
      return { index, role: 'summary', turnStart: false, calls: [], text: '', ...idOf(item, index), raw: item };
    }
    if (type.endsWith('_call_output') && item.call_id !== undefined) {
      const callId = requireString(item, 'call_id', index);
      return {
        index,
        role: 'tool',
        turnStart: false,
        calls: [],
        resultFor: callId,
        text: outputText(item.output),
        ...idOf(item, index),
        raw: item,
      };
    }
    if (type.endsWith('_call') && (item.call_id !== undefined || type === 'function_call')) {
      return readCall(item, type, index);
    }
    const text = isRecord(item) && typeof item.text === 'string' ? item.text : contentText(item.content);
    return { index, role: 'other', turnStart: false, calls: [], text, ...idOf(item, index), raw: item };
  },

  withToolOutput,

  withText(raw, text) {
    if (typeof raw.type === 'string' && raw.type.endsWith('_call_output')) return withToolOutput(raw, text);
    return { ...raw, content: replaceContentText(raw.content, text) };
  },

  summaryItem(text, meta) {
    return { type: 'message', role: 'user', content: [{ type: 'input_text', text: markedSummaryText(text, meta) }] };
  },

  notRunResult(call) {
    const type = call.kind && call.kind !== 'function_call' ? `${call.kind}_output` : 'function_call_output';
    return { type, call_id: call.id, output: notRunText(call) };
  },
};

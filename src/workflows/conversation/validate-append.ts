/**
 * Shape checks of an `append`/`prepare` input that do not depend on the conversation's state: known keys, the writer
 * and its sequence number, `reported` usage, payload size, nesting depth, content parts, tool-call ids, and user text
 * impersonating a summary. State-dependent checks (format, call/result pairing, duplicates) are in
 * `ConversationState.stage`. Every problem is a message naming the field or the message index.
 */
import { tooDeep, unknownKeyMessage } from '../../core/input/known-keys';
import { SUMMARY_MARKER } from '../../core/messages/summary-marker';
import { contentText } from '../../core/messages/text';
import { utf8Length } from '../../contract/bytes';
import { pinProblem } from '../../contract/pin-rules';
import { show } from '../../contract/validate-plan';
import { toolsProblem } from '../../contract/tool-schemas';
import { checkProtocol } from '../../contract/protocol-version';
import { writerIdProblem } from '../../contract/conversation-id';

/** Largest append input in bytes of JSON: it is stored in one history event, and the server refuses events over 2 MiB. */
export const MAX_APPEND_BYTES = 1_572_864;
/** Most messages one append may carry. */
export const MAX_APPEND_MESSAGES = 10_000;
/** Deepest JSON nesting accepted in a message (real messages nest a handful of levels). */
export const MAX_MESSAGE_DEPTH = 64;

/**
 * Checks that no message nests deeper than `MAX_MESSAGE_DEPTH` (the CLI applies the same rule to its files).
 * @returns a message naming the first message too deep and where, or undefined.
 */
export function deepMessageProblem(messages: readonly unknown[]): string | undefined {
  for (let m = 0; m < messages.length; m++) {
    const deep = tooDeep(messages[m], MAX_MESSAGE_DEPTH);
    if (deep) return `message ${m} nests deeper than ${MAX_MESSAGE_DEPTH} levels (at ${deep})`;
  }
  return undefined;
}

const INPUT_KEYS = ['messages', 'clientSeq', 'writer', 'reported', 'tools', 'protocol'];
const USAGE_KEYS = ['inputTokens', 'outputTokens', 'totalTokens', 'cachedInputTokens', 'reasoningTokens'];

/**
 * Checks an append input's `protocol` version first, so a caller of another version learns that, not a shape error.
 * @throws UnsupportedProtocol when it is present and not supported.
 */
export function checkAppendProtocol(input: unknown): void {
  if (typeof input === 'object' && input !== null)
    checkProtocol((input as { protocol?: unknown }).protocol, 'append input');
}

/**
 * Checks the state-independent shape of an append input.
 * @returns a message naming the first problem, or undefined when the input is well-formed.
 */
export function appendShapeProblem(input: unknown): string | undefined {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return `the append input must be an object {messages, clientSeq?, writer?, reported?, tools?}, got ${show(input)}`;
  }
  const unknown = unknownKeyMessage(input, INPUT_KEYS, '');
  if (unknown) return `append input: ${unknown}`;
  const i = input as Record<string, unknown>;
  if (!Array.isArray(i.messages)) return `append input.messages must be an array, got ${show(i.messages)}`;
  if (i.messages.length > MAX_APPEND_MESSAGES) {
    return `an append carries at most ${MAX_APPEND_MESSAGES} messages, got ${i.messages.length}`;
  }
  if (i.clientSeq !== undefined && !isCount(i.clientSeq)) {
    return `clientSeq must be a non-negative integer, got ${show(i.clientSeq)}`;
  }
  if (i.writer !== undefined) {
    const badWriter = writerIdProblem(i.writer, 'writer');
    if (badWriter) return badWriter;
    if (i.clientSeq === undefined) return 'writer needs a clientSeq (the writer’s sequence number, from 0)';
  }
  const reported = reportedProblem(i.reported);
  if (reported) return reported;
  const tools = i.tools === undefined ? undefined : toolsProblem(i.tools, 'tools');
  if (tools) return tools;
  const deep = deepMessageProblem(i.messages);
  if (deep) return deep;
  const bytes = utf8Length(JSON.stringify(i));
  if (bytes > MAX_APPEND_BYTES) {
    return `the append is ${bytes} bytes of JSON, over the ${MAX_APPEND_BYTES}-byte limit of one append: send its messages in several appends`;
  }
  for (let m = 0; m < i.messages.length; m++) {
    const problem = messageProblem(i.messages[m]);
    if (problem) return `message ${m}: ${problem}`;
  }
  return undefined;
}

function isCount(v: unknown): v is number {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
}

function reportedProblem(reported: unknown): string | undefined {
  if (reported === undefined) return undefined;
  if (typeof reported !== 'object' || reported === null || Array.isArray(reported)) {
    return `reported must be an object {version, usage: {inputTokens}}, got ${show(reported)}`;
  }
  const unknown = unknownKeyMessage(reported, ['version', 'usage'], 'reported');
  if (unknown) return unknown;
  const r = reported as Record<string, unknown>;
  if (!isCount(r.version)) return `reported.version must be a non-negative integer, got ${show(r.version)}`;
  if (typeof r.usage !== 'object' || r.usage === null || Array.isArray(r.usage)) {
    return `reported.usage must be an object with inputTokens, got ${show(r.usage)}`;
  }
  const usageUnknown = unknownKeyMessage(r.usage, USAGE_KEYS, 'reported.usage');
  if (usageUnknown) return usageUnknown;
  const usage = r.usage as Record<string, unknown>;
  if (!isCount(usage.inputTokens)) {
    return `reported.usage.inputTokens must be a non-negative integer, got ${show(usage.inputTokens)}`;
  }
  for (const key of USAGE_KEYS.slice(1)) {
    if (usage[key] !== undefined && usage[key] !== null && !isCount(usage[key])) {
      return `reported.usage.${key} must be a non-negative integer, got ${show(usage[key])}`;
    }
  }
  return undefined;
}

/** Checks of one message that the format adapters leave open. */
function messageProblem(raw: unknown): string | undefined {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return undefined; // the adapters name this
  const msg = raw as Record<string, unknown>;
  const pin = pinProblem(msg);
  if (pin) return pin;
  if (Array.isArray(msg.content)) {
    for (let p = 0; p < msg.content.length; p++) {
      const part: unknown = msg.content[p];
      if (typeof part !== 'object' || part === null || Array.isArray(part)) {
        return `content[${p}] must be a content part object, got ${show(part)}`;
      }
      const type = (part as Record<string, unknown>).type;
      if (typeof type !== 'string' || type === '') {
        return `content[${p}] must have a string 'type' (text, image_url, input_text, …), got ${show(part)}`;
      }
    }
  }
  if (Array.isArray(msg.tool_calls)) {
    const seen = new Set<string>();
    for (const call of msg.tool_calls) {
      const id = typeof call === 'object' && call !== null ? (call as Record<string, unknown>).id : undefined;
      if (typeof id !== 'string') continue; // the chat adapter names a missing id
      if (seen.has(id)) return `tool call id '${id}' appears twice in this message`;
      seen.add(id);
    }
  }
  if (msg.role === 'user' && contentText(msg.content).startsWith(SUMMARY_MARKER)) {
    return `user text may not start with '${SUMMARY_MARKER}': that marker is reserved for summaries this service writes`;
  }
  return undefined;
}

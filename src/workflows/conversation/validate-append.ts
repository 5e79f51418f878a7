/**
 * Checks of an `append`/`prepare` input that do not depend on the conversation's state: its shape (the schema in
 * src/contract/schemas/append.ts: known keys, the writer and its sequence number, `reported` usage), payload size, nesting depth, content parts, tool-call ids, and user text
 * impersonating a summary. State-dependent checks (format, call/result pairing, duplicates) are in
 * `ConversationState.stage`. Every problem is a message naming the field or the message index.
 */
import { tooDeep } from '../../core/input/known-keys';
import { SUMMARY_MARKER } from '../../core/messages/summary-marker';
import { contentText } from '../../core/messages/text';
import { utf8Length } from '../../contract/bytes';
import { pinFlagProblem } from '../../contract/pinned-message-checks';
import { show } from '../../contract/show-value';
import { toolsProblem } from '../../contract/tool-schemas';
import { checkProtocol } from '../../contract/protocol-version';
import { appendFields, type AppendInput } from '../../contract/schemas/append';
import { problemOf } from '../../contract/schemas/problem';

/** Largest append input in bytes of JSON: it is stored in one history event, and the server refuses events over 2 MiB. */
export const MAX_APPEND_BYTES = 1_572_864;
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
  const shape = problemOf(appendFields, input, 'append input');
  if (shape) return shape;
  const i = input as AppendInput;
  if (i.writer !== undefined && i.clientSeq === undefined) {
    return 'writer needs a clientSeq (the writer’s sequence number, from 0)';
  }
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

/** Checks of one message that the format adapters leave open. */
function messageProblem(raw: unknown): string | undefined {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return undefined; // the adapters name this
  const msg = raw as Record<string, unknown>;
  const pin = pinFlagProblem(msg);
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

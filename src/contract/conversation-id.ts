/**
 * Conversation ids, writer ids and message formats as callers give them. The conversation *is* its workflow: its id is the
 * workflow id without the `conversation-` prefix. The client checks both in its constructor, the workflow again at
 * start (src/workflows/conversation/validate-start.ts).
 */
import { formatNamed, MESSAGE_FORMATS } from '../core/messages/format-name';
import { workflowIdPrefix } from './definitions';
import { show } from './show-value';

/** Conversation ids: 1–200 characters, ASCII letters, digits and `. _ - : @`, not starting with a dot. */
export const CONVERSATION_ID_PATTERN = /^[A-Za-z0-9_:@-][A-Za-z0-9._:@-]{0,199}$/;

/** @returns why `id` is not a valid conversation id, or undefined when it is. */
export function conversationIdProblem(id: unknown): string | undefined {
  if (typeof id !== 'string') return `the conversation id must be a string, got ${show(id)}`;
  if (CONVERSATION_ID_PATTERN.test(id)) return undefined;
  if (id.length === 0) return 'the conversation id must not be empty';
  if (id.length > 200) return `the conversation id is ${id.length} characters long, at most 200 are allowed`;
  return `the conversation id ${show(id)} may only hold ASCII letters, digits and . _ - : @ (not starting with '.')`;
}

export { WRITER_ID_PATTERN, writerIdProblem } from './writer-id';

/** @returns the conversation id a workflow id names, or undefined when it is not a conversation workflow id. */
export function conversationIdOf(workflowId: string): string | undefined {
  return workflowId.startsWith(workflowIdPrefix) ? workflowId.slice(workflowIdPrefix.length) : undefined;
}

/** The wire formats a conversation can be started with (`'s0'`, the typed format's former name, is read too). */
export { MESSAGE_FORMATS };

/** @returns why `value` is not a message format, or undefined when it is one. */
export function formatProblem(value: unknown): string | undefined {
  return formatNamed(value) ? undefined : `format must be one of ${MESSAGE_FORMATS.join(', ')}, got ${show(value)}`;
}

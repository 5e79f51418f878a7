/**
 * A conversation whose first messages were plain `{role, content}` elements is read as chat (they fit both formats).
 * When Responses items follow, it becomes a Responses conversation, provided everything stored so far reads the same
 * way in Responses (no chat-only element: tool messages, `tool_calls`, chat content parts). Plain chat messages are
 * valid Responses input, so nothing stored changes.
 */
import { detectFormat, formatVote } from './detect';

/**
 * @param stored the elements of the conversation so far (read as chat).
 * @param fresh the elements being appended.
 * @returns true when `fresh` is Responses input and `stored` holds nothing only chat can hold.
 */
export function upgradesToResponses(stored: readonly unknown[], fresh: readonly unknown[]): boolean {
  return detectFormat(fresh) === 'responses' && stored.every((el) => formatVote(el) === undefined);
}

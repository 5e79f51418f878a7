/**
 * A conversation whose first messages were plain `{role, content}` elements is read as chat (they fit both formats).
 * When Responses items follow, it becomes a Responses conversation, provided everything stored so far reads the same
 * way in Responses (no chat-only element: tool messages, `tool_calls`, chat content parts). Plain chat messages are
 * valid Responses input, so nothing stored changes.
 */
import { detectFormat, formatVote } from './detect';
import { isRecord } from './validate';

/** Chat `text` parts fit Anthropic too (so they decide no format), but Responses has no `text` input part. */
function holdsTextParts(el: unknown): boolean {
  return isRecord(el) && Array.isArray(el.content) && el.content.some((p) => isRecord(p) && p.type === 'text');
}

/**
 * @param stored the elements of the conversation so far (read as chat); read only when `fresh` is Responses input.
 * @param fresh the elements being appended.
 * @returns true when `fresh` is Responses input and `stored` holds nothing only chat can hold; false when `fresh`
 *   mixes formats.
 */
export function upgradesToResponses(stored: Iterable<unknown>, fresh: readonly unknown[]): boolean {
  let format;
  try {
    format = detectFormat(fresh);
  } catch {
    return false; // mixed formats: reading the append refuses it with the reason
  }
  if (format !== 'responses') return false;
  for (const el of stored) if (formatVote(el) !== undefined || holdsTextParts(el)) return false;
  return true;
}

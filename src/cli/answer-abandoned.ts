/**
 * A FILE of messages as the conversation workflow would store it: each abandoned tool call (one the agent moved on
 * from) followed by its "not run" result, found by the workflow's own rule (`abandonedCallResults`). Without them an
 * early unanswered call stopped every offline fold behind it while the workflow folded.
 */
import { abandonedCallResults } from '../core/messages/abandoned-calls';
import type { MessageFormat } from '../core/messages/types';

/** The answered messages and where each came from. */
export interface AnsweredMessages {
  messages: unknown[];
  /** For each of `messages`, its index in the file; -1 for a "not run" result the workflow would have stored. */
  origin: number[];
}

/**
 * @returns `messages` with the "not run" results of their abandoned calls in place (the same array when none is).
 * @throws TranscriptValidationError on a malformed message.
 */
export function answerAbandonedCalls(messages: readonly unknown[], format: MessageFormat): AnsweredMessages {
  const results = abandonedCallResults(messages, format);
  const out: AnsweredMessages = { messages: [], origin: [] };
  let r = 0;
  const placeBefore = (position: number): void => {
    for (; r < results.length && results[r]!.at === position; r++) {
      out.messages.push(results[r]!.raw);
      out.origin.push(-1);
    }
  };
  messages.forEach((raw, i) => {
    placeBefore(i);
    out.messages.push(raw);
    out.origin.push(i);
  });
  placeBefore(messages.length);
  return out;
}

/**
 * An AI SDK agent's steps through a conversation: a `prepareStep` for `generateText` / `streamText` (`ai` v5 and
 * later) that appends each step's new messages to the conversation and hands the model the conversation's context
 * (folded when it has grown past its budget) instead of the SDK's ever-growing message list.
 *
 * The SDK passes every step the whole list (the call's `messages` plus what earlier steps added); the helper keeps
 * how many of them the conversation already holds, across calls, so an app that sends its whole history on every
 * call appends each message once. The conversation must be of format `ai-sdk` (create its client with
 * `format: 'ai-sdk'`).
 */
import type { ModelMessage } from 'ai';
import type { ConversationClient } from './conversation-client';

/** Options of {@link conversationSteps}. */
export interface ConversationStepsOptions {
  /**
   * How many leading messages of the list the SDK passes are already stored in the conversation (an app resuming
   * with a history it appended before). @default 0
   */
  alreadyStored?: number;
}

/** What {@link conversationSteps} returns. */
export interface ConversationSteps {
  /**
   * Pass as `prepareStep` to `generateText` / `streamText` (alone, or called from your own). It reads only the
   * step's `messages`, so it fits the `prepareStep` of any tool set.
   */
  prepareStep: (step: { messages: ModelMessage[] }) => Promise<{ messages: ModelMessage[] }>;
  /**
   * Records the messages of `history` the conversation does not hold yet: call it with the whole history after a
   * run, so the final step's answer is stored before the user's next message (no later step would append it).
   */
  flush(history: readonly ModelMessage[]): Promise<void>;
  /** How many messages of the SDK's list the conversation holds so far. */
  stored(): number;
}

/**
 * Routes an AI SDK agent's steps through a conversation.
 * @returns `prepareStep`, `flush` for the end of a run, and a counter of stored messages.
 * @throws (from `prepareStep`) RangeError when the SDK's list is shorter than what was stored (a different history
 *   was passed); the conversation client's errors (`ConversationUpdateError` for a refused message, nothing stored).
 */
export function conversationSteps(
  conversation: ConversationClient,
  options: ConversationStepsOptions = {}
): ConversationSteps {
  let stored = options.alreadyStored ?? 0;
  const prepareStep = async ({ messages }: { messages: ModelMessage[] }): Promise<{ messages: ModelMessage[] }> => {
    if (messages.length < stored) {
      throw new RangeError(
        `the SDK passed ${messages.length} messages but the conversation already holds ${stored} of this history; pass the whole history or set alreadyStored`
      );
    }
    const fresh = messages.slice(stored);
    const prepared = await conversation.prepare(fresh);
    stored = messages.length;
    return { messages: prepared.messages };
  };
  const flush = async (history: readonly ModelMessage[]): Promise<void> => {
    if (history.length <= stored) return;
    await conversation.record(history.slice(stored));
    stored = history.length;
  };
  return { prepareStep, flush, stored: () => stored };
}

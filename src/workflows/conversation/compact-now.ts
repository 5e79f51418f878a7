/**
 * The `compactNow` handler: validator and answer. The fold itself is `ConversationFolds.foldNow`, run by `ConversationHandlers`
 * under the conversation's lock like every other change.
 */
import { compactNowInputProblem, type CompactNowInput, type CompactNowResult } from '../../contract/compact-now';
import { ConversationClosed } from '../../contract/closed';
import type { FoldOutcome } from './conversation-folds';
import { AppendRejected, type ConversationState } from './conversation-state';

/**
 * Synchronous validator: refuses before anything reaches history.
 * @throws ConversationClosed when the conversation is closed; AppendRejected naming the bad field.
 */
export function validateCompactNow(state: ConversationState, input: unknown): void {
  if (state.carried.closed) throw new ConversationClosed();
  const problem = compactNowInputProblem(input);
  if (problem) throw new AppendRejected(problem);
}

/** @returns the focus to send, trimmed; `undefined` when none was given (or only blanks). */
export function focusOf(input: CompactNowInput | undefined | null): string | undefined {
  const focus = input?.focus?.trim();
  return focus ? focus : undefined;
}

/** @returns the update's answer for what `foldNow` did. */
export function compactNowResult(outcome: FoldOutcome, version: number): CompactNowResult {
  return { folded: outcome.fold?.ok === true, decision: outcome.decision, fold: outcome.fold ?? null, version };
}

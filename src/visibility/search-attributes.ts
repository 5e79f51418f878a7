/**
 * The search attributes every conversation sets, so the Temporal UI and `temporal workflow list --query` can find
 * conversations by size and state (e.g. `ConversationTokens > 100000 AND ConversationState = 'backing-off'`).
 * Plain data and `defineSearchAttributeKey` only: imported by workflow code, the dev server and the docs.
 */
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

/** Estimated context tokens (calibrated) when the attributes were last set. */
export const conversationTokensKey = defineSearchAttributeKey('ConversationTokens', SearchAttributeType.INT);
/** Fold attempts so far (successful or not). */
export const conversationFoldsKey = defineSearchAttributeKey('ConversationFolds', SearchAttributeType.INT);
/** The context budget in tokens. */
export const conversationBudgetKey = defineSearchAttributeKey('ConversationBudget', SearchAttributeType.INT);
/**
 * The conversation's status: `active`, `backing-off` (the last fold failed and its prefix is not retried yet) or
 * `closed`. Named `ConversationState` in Temporal (operators create it under that name), not the workflow's state.
 */
export const conversationStatusKey = defineSearchAttributeKey('ConversationState', SearchAttributeType.KEYWORD);

/** What the `ConversationState` search attribute holds: the conversation's status. */
export type ConversationStatus = 'active' | 'backing-off' | 'closed';

/** Every key with the type name `temporal operator search-attribute create --type` and `--search-attribute` take. */
export const conversationSearchAttributes = [
  { key: conversationTokensKey, cliType: 'Int', doc: 'estimated context tokens' },
  { key: conversationFoldsKey, cliType: 'Int', doc: 'fold attempts so far' },
  { key: conversationBudgetKey, cliType: 'Int', doc: 'context budget in tokens' },
  { key: conversationStatusKey, cliType: 'Keyword', doc: 'active | backing-off | closed' },
] as const;

/** @returns `--search-attribute Name=Type` arguments for `temporal server start-dev`. */
export function devServerSearchAttributeArgs(): string[] {
  return conversationSearchAttributes.flatMap((a) => ['--search-attribute', `${a.key.name}=${a.cliType}`]);
}

/**
 * What the Temporal UI shows of a conversation: current details (markdown, every turn, no history event) and search
 * attributes (on fold, continue-as-new and close: one history event each). Workflow code only.
 */
import { setCurrentDetails, upsertSearchAttributes, workflowInfo } from '@temporalio/workflow';
import type { FoldRecord } from '../../core/fold/fold-record';
import { renderCurrentDetails } from '../../visibility/current-details';
import {
  conversationBudgetKey,
  conversationFoldsKey,
  conversationStatusKey,
  conversationTokensKey,
  type ConversationStatus,
} from '../../visibility/search-attributes';
import type { ConversationStateView } from '../../contract/definitions';

/** Sets the current details from the state view and the latest fold record. */
export function showCurrentDetails(view: ConversationStateView, lastFold: FoldRecord | null): void {
  setCurrentDetails(
    renderCurrentDetails({
      conversationId: view.conversationId,
      model: view.settings.model,
      tokens: view.tokens,
      budget: view.budget,
      triggerRatio: view.settings.triggerRatio,
      messages: view.messages,
      archived: view.archived,
      folds: view.folds,
      lastFold,
      backoff: view.backoff,
      folding: view.folding,
      closed: view.closed,
      lastError: view.lastError,
    })
  );
}

/** @returns the conversation's status for a state view (the `ConversationState` search attribute). */
export function conversationStatusOf(view: ConversationStateView): ConversationStatus {
  return view.closed ? 'closed' : view.backoff ? 'backing-off' : 'active';
}

/**
 * Sets the conversation's search attributes. Only for conversations started with them (the client sets them at
 * start): upserting an attribute the namespace does not know would fail the workflow task, and a start with unknown
 * attributes is refused at the client instead, with the server's message.
 */
export function upsertConversationAttributes(view: ConversationStateView): void {
  if (workflowInfo().typedSearchAttributes.get(conversationStatusKey) === undefined) return;
  upsertSearchAttributes([
    { key: conversationTokensKey, value: view.tokens },
    { key: conversationFoldsKey, value: view.folds },
    { key: conversationBudgetKey, value: view.budget },
    { key: conversationStatusKey, value: conversationStatusOf(view) },
  ]);
}

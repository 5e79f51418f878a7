/**
 * What a conversation's workflow is started with for the Temporal UI: a static summary naming the conversation and,
 * optionally, its initial search attributes (which tell the workflow to keep them current).
 */
import type { SearchAttributePair } from '@temporalio/common';
import { groupDigits } from '../visibility/current-details';
import {
  conversationBudgetKey,
  conversationFoldsKey,
  conversationStatusKey,
  conversationTokensKey,
} from '../visibility/search-attributes';
import { mergeStartSettings } from '../contract/fold-target';
import type { SettingsPatch } from '../contract/settings';

/** @returns start options: `staticSummary`, `staticDetails` and, when `searchAttributes`, `typedSearchAttributes`. */
export function startVisibility(
  conversationId: string,
  settings: SettingsPatch | undefined,
  searchAttributes: boolean
): { staticSummary: string; staticDetails: string; typedSearchAttributes?: SearchAttributePair[] } {
  const merged = mergeStartSettings(settings);
  const pairs: SearchAttributePair[] = [
    { key: conversationTokensKey, value: 0 },
    { key: conversationFoldsKey, value: 0 },
    { key: conversationBudgetKey, value: merged.budget },
    { key: conversationStatusKey, value: 'active' },
  ];
  return {
    staticSummary: `Conversation ${conversationId}`,
    staticDetails:
      `Keeps conversation \`${conversationId}\` inside ${groupDigits(merged.budget)} tokens of ${merged.model} ` +
      `(policy ${merged.policy}, fold at ${Math.round(merged.triggerRatio * 100)}%, summarizer ${merged.summarizer.profile || 'the default profile'}).`,
    ...(searchAttributes ? { typedSearchAttributes: pairs } : {}),
  };
}

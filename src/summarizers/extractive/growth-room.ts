/** How large an extractive summary may grow with what it folds, before only must-keep entries may pass it. */
import type { Item } from '../../core/messages/types';
import type { Count } from './fit';

/** The share of the newly folded tokens (those not of an earlier summary) a summary may add. */
export const GROWTH_SHARE = 0.13;

/**
 * The room a summary may fill with its least binding ledger entries: the size of the earlier summaries it folds plus
 * {@link GROWTH_SHARE} of the rest of what it folds. An earlier summary stood for far more than its own tokens, so a
 * summary within this room stays within 15% of the original tokens it stands for, fold after fold, while a fold that
 * has the room keeps what tools showed and the assistant found instead of dropping it.
 *
 * @param foldedTokens the tokens of `items` as the fold counted them
 * @returns the room in tokens (0 when `foldedTokens` is 0 or less)
 */
export function growthRoom(items: readonly Item[], foldedTokens: number, count: Count): number {
  const earlier = items.filter((it) => it.role === 'summary').reduce((sum, it) => sum + count(it.text), 0);
  const added = Math.max(0, foldedTokens - earlier);
  return Math.max(0, Math.floor(Math.min(earlier, foldedTokens) + GROWTH_SHARE * added));
}

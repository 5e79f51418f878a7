/**
 * The Compactor's default fold target and summary reserve. A compactor whose state was made by this version folds,
 * like a new conversation, to a quarter of the budget (`NEW_CONVERSATION_TARGET_RATIO`) with the `carried` summary
 * reserve; one carrying state saved before keeps the core's half and `fixed`. Both are recorded in the compactor's own
 * state (`foldTarget`, `summaryReserve`), not in a patch marker: the compactor runs in its host's workflow, whose
 * history holds no marker of ours.
 */
import { NEW_CONVERSATION_RESERVE, NEW_CONVERSATION_TARGET_RATIO, targetFitsUnder } from '../../contract/fold-target';
import type { CompactionOptions, SummaryReserve } from '../../core/plan/options';

/** The default fold target recorded in a new compactor's state. */
export const COMPACTOR_FOLD_TARGET = NEW_CONVERSATION_TARGET_RATIO;

/** The default summary reserve recorded in a new compactor's state. */
export const COMPACTOR_SUMMARY_RESERVE: SummaryReserve = NEW_CONVERSATION_RESERVE;

/**
 * @param planning the compactor's planning options as given.
 * @param foldTarget the state's recorded default target; `undefined` for state saved before it (the core's 0.5).
 * @param summaryReserve the state's recorded default reserve; `undefined` for state saved before it (`fixed`).
 * @returns the options the plan uses: the given ones, with `targetRatio` set to `foldTarget` when the caller set no
 *   target, the policy is `auto` and the trigger is above it ({@link targetFitsUnder}), and `summaryReserve` set to
 *   the recorded one when the caller set none.
 */
export function planningWithTarget(
  planning: CompactionOptions,
  foldTarget: number | undefined,
  summaryReserve?: SummaryReserve
): CompactionOptions {
  if ((planning.policy ?? 'auto') !== 'auto') return planning;
  const reserve = summaryReserve !== undefined && planning.summaryReserve === undefined ? { summaryReserve } : {};
  if (foldTarget === undefined || planning.targetRatio !== undefined) return { ...planning, ...reserve };
  if (!targetFitsUnder(foldTarget, planning.triggerRatio)) return { ...planning, ...reserve };
  return { ...planning, ...reserve, targetRatio: foldTarget };
}

/**
 * The Compactor's default fold target. A compactor whose state was made by this version folds, like a new
 * conversation, to a quarter of the budget (`NEW_CONVERSATION_TARGET_RATIO`); one carrying state saved before keeps
 * the core's half. The target is recorded in the compactor's own state (`foldTarget`), not in a patch marker: the
 * compactor runs in its host's workflow, whose history holds no marker of ours.
 */
import { NEW_CONVERSATION_TARGET_RATIO, targetFitsUnder } from '../../contract/fold-target';
import type { CompactionOptions } from '../../core/plan/options';

/** The default fold target recorded in a new compactor's state. */
export const COMPACTOR_FOLD_TARGET = NEW_CONVERSATION_TARGET_RATIO;

/**
 * @param planning the compactor's planning options as given.
 * @param foldTarget the state's recorded default target; `undefined` for state saved before it (the core's 0.5).
 * @returns the options the plan uses: the given ones, with `targetRatio` set to `foldTarget` when the caller set no
 *   target, the policy is `auto` and the trigger is above it ({@link targetFitsUnder}).
 */
export function planningWithTarget(planning: CompactionOptions, foldTarget: number | undefined): CompactionOptions {
  if (foldTarget === undefined || planning.targetRatio !== undefined) return planning;
  if ((planning.policy ?? 'auto') !== 'auto') return planning;
  if (!targetFitsUnder(foldTarget, planning.triggerRatio)) return planning;
  return { ...planning, targetRatio: foldTarget };
}

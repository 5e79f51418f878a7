/**
 * Settings that are each in range but wrong together. A fold lands the context near a target; if the trigger sits at
 * or below that target, the folded context is already at the trigger, so every later call folds again (a summarizer
 * call per turn, for nothing). Likewise a summary reserve as large as the target leaves no room for a verbatim tail,
 * and a minimum fold set at or above the trigger lets the context run past the budget before any fold.
 */
import { resolveOptions, type CompactionOptions } from '../core/plan/options';

/**
 * @param options the planning options of a conversation's settings (see `planOptions`).
 * @returns what is wrong with them together, naming the settings; `undefined` when they fit.
 * @throws PlanOptionsError when a single option is out of range (checked first by `resolveOptions`).
 */
export function settingsTogetherProblem(options: CompactionOptions): string | undefined {
  const o = resolveOptions(options);
  const at = (ratio: number) => Math.floor(ratio * o.budget);
  if (o.policy === 'auto' && o.triggerRatio <= o.targetRatio) {
    return (
      `triggerRatio (${o.triggerRatio}) must be above plan.targetRatio (${o.targetRatio}): a fold aims at the target, ` +
      'so a trigger at or below it would fold again after every fold'
    );
  }
  if (o.policy === 'tokens' && o.triggerRatio <= o.tailRatio) {
    return (
      `triggerRatio (${o.triggerRatio}) must be above plan.tailRatio (${o.tailRatio}): the kept tail alone would ` +
      'reach the trigger, so every call would fold again'
    );
  }
  if (o.policy === 'auto' && o.summaryReserveTokens >= at(o.targetRatio)) {
    return (
      `plan.summaryReserveTokens (${o.summaryReserveTokens}) must be below targetRatio × budget ` +
      `(${at(o.targetRatio)} tokens): nothing would be left for the verbatim tail`
    );
  }
  if (options.minFoldTokens !== undefined && o.minFoldTokens >= at(o.triggerRatio)) {
    return (
      `plan.minFoldTokens (${o.minFoldTokens}) must be below triggerRatio × budget (${at(o.triggerRatio)} tokens): ` +
      'the context would run past the trigger, towards the budget, before any fold'
    );
  }
  return undefined;
}

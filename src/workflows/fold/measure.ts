/**
 * The calibrated estimate in a fold, as both folders use it: planning prices the calibration's excess over the count
 * like fixed tokens (it is never folded away), and a folded context is measured by its elements' counts.
 */
import { applyCalibration, type Calibration } from '../../core/calibration';
import type { Transcript } from '../../core/messages/types';
import { planFold, resolveOptions, triggerReason, type FoldPlan, type PlanInput } from '../../core/plan';

/** What {@link planCalibrated} plans from. */
export interface CalibratedPlanInput {
  transcript: Transcript;
  /** Counted tokens of each item, the fixed tokens, their sum (`counted`) and its calibrated estimate. */
  tokens: readonly number[];
  fixedTokens: number;
  counted: number;
  estimate: number;
  options: PlanInput['options'];
  predicates?: PlanInput['predicates'];
}

/** @returns the fold plan for the context as estimated (see `planFold`). */
export function planCalibrated(input: CalibratedPlanInput): FoldPlan {
  return planFold({
    transcript: input.transcript,
    tokens: input.tokens,
    fixedTokens: input.fixedTokens + (input.estimate - input.counted),
    options: input.options,
    ...(input.predicates ? { predicates: input.predicates } : {}),
  });
}

/**
 * The trigger check {@link planCalibrated} starts with, from the estimate and the item count alone: the planner's
 * total is the estimate (the calibration's excess is priced as fixed tokens), so no per-item input is built.
 * @returns why the plan would decline at its trigger; undefined when it would go on to plan.
 * @throws PlanOptionsError on bad options.
 */
export function calibratedTriggerReason(
  options: PlanInput['options'],
  estimate: number,
  count: number
): string | undefined {
  return triggerReason(resolveOptions(options), estimate, count);
}

/**
 * @param countOf the count of one element of the folded context (kept or inserted); missing counts as 0.
 * @returns the calibrated estimate of a folded context: its elements' counts plus the fixed tokens.
 */
export function measureFolded(
  calibration: Calibration | null,
  folded: readonly unknown[],
  countOf: (raw: unknown) => number | undefined,
  fixedTokens: number
): number {
  return applyCalibration(
    calibration,
    folded.reduce<number>((sum, raw) => sum + (countOf(raw) ?? 0), fixedTokens)
  );
}

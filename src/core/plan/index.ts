/** Fold planning: trigger, keep policies, shared safety rules, clipping, min-fold, the keep-verbatim selector and filter. */
export { planFold } from './plan';
export type { FoldPlan, PlanInput, PlanKind, PlanPredicates } from './types';
export {
  CARRIED_RESERVE_SHARE,
  KEEP_POLICIES,
  PlanOptionsError,
  SUMMARY_RESERVES,
  resolveOptions,
  type CompactionOptions,
  type ItemSelector,
  type KeepPolicy,
  type ResolvedOptions,
  type SummaryReserve,
} from './options';
export { safeCuts, safeAtOrBefore, cutGroups } from './safe-cut';
export { keepVerbatim, matchesSelector } from './selector';
export { triggerReason, triggerThreshold } from './trigger';
export { roundStarts } from './policies/rounds';
export { clipItem, clipOversized, type ClipResult } from './clip-oversized';

/** Fold planning: trigger, keep policies, shared safety rules, clipping, min-fold, the keep-verbatim selector and filter. */
export { planFold } from './plan';
export type { FoldPlan, PlanInput, PlanKind, PlanPredicates } from './types';
export {
  KEEP_POLICIES,
  PlanOptionsError,
  resolveOptions,
  type CompactionOptions,
  type ItemSelector,
  type KeepPolicy,
  type ResolvedOptions,
} from './options';
export { safeCuts, safeAtOrBefore, cutGroups } from './safe-cut';
export { keepVerbatim, matchesSelector } from './selector';
export { triggerReason, triggerThreshold } from './trigger';
export { roundStarts } from './policies/rounds';
export { clipItem, clipOversized, type ClipResult } from './clip-oversized';

/** Fold planning: trigger, keep policies, shared safety rules, clipping, min-fold, pins and filter. */
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
export { matchesSelector } from './selector';
export { triggerThreshold } from './trigger';
export { roundStarts } from './policies/rounds';
export { clipItem, clipOversized, type ClipResult } from './clip-oversized';

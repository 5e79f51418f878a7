/**
 * The back-off check both folders ask before summarizing a planned prefix (the conversation workflow and the
 * Compactor): the prefix failed before and has neither grown enough nor waited out the escalating delay.
 */
import { shouldBackOff, type BackoffMemory } from '../../core/fold/backoff';
import { backoffDelays, type FoldLimits } from '../../contract/fold-limits';

/**
 * A failed prefix is tried again once a fold would take in this many more items: the `items` policy's default keep,
 * not the plan's tail (the auto policy may move its cut by a whole turn for one short message, which says nothing
 * about whether the same summary would now work).
 */
export const BACKOFF_ITEMS = 4;

/** What the check reads of the context as planned now. */
export interface BackoffQuestion {
  /** The context's raws and the planned cut. */
  raws: readonly unknown[];
  split: number;
  /** Estimated tokens of the context, and its budget. */
  tokens: number;
  budget: number;
  /** The workflow's clock, and the limits whose delays escalate after consecutive failures. */
  now: number;
  limits: FoldLimits;
}

/** @returns true to send the context unfolded this time (see `shouldBackOff`); false without a memory. */
export function backsOff(memory: BackoffMemory | null | undefined, q: BackoffQuestion): boolean {
  if (!memory) return false;
  return shouldBackOff(memory, {
    raws: q.raws,
    split: q.split,
    tokens: q.tokens,
    budget: q.budget,
    keep: BACKOFF_ITEMS,
    now: q.now,
    delays: backoffDelays(q.limits),
  });
}

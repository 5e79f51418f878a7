/**
 * The layout of a folded context: which of the transcript's items it keeps and in what order, around the element(s)
 * standing in for the folded part.
 */
import type { Transcript } from '../messages/types';

/**
 * The parts of a fold plan that say which items the folded context holds. `FoldPlan` from `core/plan` satisfies it;
 * it is spelled out here so building a fold does not depend on how a plan is made.
 */
export interface FoldLayout {
  /** True when the plan folds; a declining plan has nothing to apply. */
  fold: boolean;
  /** Instructions items hoisted to the front, in transcript order. */
  instructions: readonly number[];
  /** Items of the folded part kept verbatim after the summary. */
  pinned: readonly number[];
  /** The kept tail, in transcript order. */
  tail: readonly number[];
}

/** The folded context's order: `front` items, then the summary, then `after`. */
export interface FoldOrder {
  front: number[];
  after: number[];
}

/**
 * Orders a layout's kept items. An instructions item the plan left among the pinned or tail items is hoisted to the
 * front as well (after the plan's own instructions, in transcript order), so the model always reads its instructions
 * before anything else, whichever policy made the plan.
 * @returns the indices before and after the summary; an index the transcript lacks is passed through unchanged so
 *   the safety check can report it.
 */
export function foldOrder(transcript: Transcript, plan: FoldLayout): FoldOrder {
  const isInstructions = (index: number): boolean => transcript.items[index]?.role === 'instructions';
  const rest = [...plan.pinned, ...plan.tail];
  const hoisted = rest.filter(isInstructions).sort((a, b) => a - b);
  return { front: [...plan.instructions, ...hoisted], after: rest.filter((i) => !isInstructions(i)) };
}

/**
 * Planning input and output. Both are plain JSON except the optional predicates of the embedded API, which the
 * workflow never stores.
 */
import type { Item, Transcript } from '../messages/types';
import type { CompactionOptions, KeepPolicy } from './options';

/** Predicates for the embedded API, applied in addition to the JSON selectors in the options. */
export interface PlanPredicates {
  /** Items of the folded part to keep verbatim after the summary. */
  pin?: (item: Item) => boolean;
  /** Items of the folded part the summarizer must not see. */
  filter?: (item: Item) => boolean;
}

/** What {@link planFold} decides on. */
export interface PlanInput {
  transcript: Transcript;
  /** `tokens[i]` is item i's count including its per-message wire overhead; one entry per item. */
  tokens: readonly number[];
  /** Reply priming plus tool schemas: counted against the trigger and the target, never folded. @default 0 */
  fixedTokens?: number;
  options: CompactionOptions;
  predicates?: PlanPredicates;
}

/**
 * `fold`: summarise `summarize`, keep `keep`. `none`: leave the transcript as it is. `truncate`: drop `dropped`
 * without a summary (truncate mode).
 */
export type PlanKind = 'fold' | 'none' | 'truncate';

/** The decision. Indices are into the caller's array. */
export interface FoldPlan {
  /** True only for kind `fold`. */
  fold: boolean;
  kind: PlanKind;
  /** Why: the trigger numbers and the chosen cut, or why nothing is folded. */
  reason: string;
  policy: KeepPolicy;
  /** Counted tokens of the whole transcript plus `fixedTokens`. */
  tokens: number;
  /** `floor(budget × triggerRatio)`. */
  threshold: number;
  /** Items before `split` are the folded part (apart from hoisted instructions and items kept verbatim); 0 when nothing is folded. */
  split: number;
  /** Items the summarizer sees (folded part minus instructions and filtered items), in order. */
  summarize: number[];
  /** Items in folded-context order: instructions, pinned, tail. All items, in order, when nothing is folded. */
  keep: number[];
  /** Every instructions item, hoisted to the front, in transcript order. */
  instructions: number[];
  /** Items of the folded part kept verbatim after the summary, in order. */
  pinned: number[];
  /** Non-instructions items from `split` on, in order. */
  tail: number[];
  /** Items that leave the context (folded or truncated, not pinned), in order. */
  dropped: number[];
  /** Tokens of the `summarize` items. */
  foldedTokens: number;
  /** Tokens of the kept items plus `fixedTokens`: the folded context's size without the summary. */
  keptTokens: number;
  /**
   * `auto` with `summaryReserve: 'carried'`: the room the plan set aside for the summary, what earlier summaries carry
   * included; the summarizer keeps their entries within it. Absent otherwise.
   */
  carriedRoomTokens?: number;
}

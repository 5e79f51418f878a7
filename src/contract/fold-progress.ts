/**
 * A fold in flight as callers see it: the `state` query's `folding`, `prepare`'s `folding`, the client's progress
 * events. The workflow keeps more about it (src/workflows/conversation/pending-fold.ts); this is the public part.
 */
import type { FoldRecord } from '../core/fold/fold-record';

/** The fold in flight as callers see it (the `state` query's `folding`, the client's progress events). */
export interface FoldProgress {
  /** Epoch ms the fold started ("compacting since T"). */
  since: number;
  /**
   * `summarizing`: the summarizer is writing; `waiting`: a `prepare` at the hard limit is waiting for it; `replacing`:
   * the offline fallback was applied and the model is still writing the summary that will replace it; `ready`: the
   * summary is in and is applied (or replaces the fallback's) at the next `prepare`.
   */
  phase: 'summarizing' | 'waiting' | 'ready' | 'replacing';
  /** The try of this prefix (1 on a first try; higher after failures of the same prefix). */
  attempt: number;
  lastError: string | null;
  /** The prefix it folds: items before `split` of the context, with their hash and archive range. */
  expected: {
    split: number;
    prefixHash: string;
    archiveRange: FoldRecord['archiveRange'];
    tokensBefore: number;
  };
}

/**
 * A fold summarized in the background: what it stands on, how it is doing, and the pure checks made when it is
 * applied at a later turn (does its prefix still lead the context? which items does it keep now?). Plain JSON, kept
 * in the conversation's state; a summary that is ready crosses continue-as-new with it.
 */
import type { FoldLayout } from '../../core/fold/layout';
import type { SummaryMeta } from '../../core/messages/format-adapter';
import type { Transcript } from '../../core/messages/types';
import type { FoldProgress } from '../../contract/fold-progress';
import type { FoldTicket, SummaryOutcome } from '../fold/fold-step';

/** One fold in flight (or ready and not applied yet). */
export interface PendingFold {
  ticket: FoldTicket;
  /** Live uids of the planned prefix (items before `split`): the fold applies only while they still lead the context. */
  prefixUids: string[];
  /** The try of this prefix: 1, or one more than the failures in a row before it. */
  attempt: number;
  /** Why the previous try of this prefix failed; `null` on a first try. */
  lastError: string | null;
  /** The summarizer's answer once it is in; `null` while summarizing. */
  outcome: SummaryOutcome | null;
  /** Set when the offline fallback was applied in its place at the hard limit: the model summary may replace it. */
  fallback: { number: number; uids: string[]; meta: SummaryMeta } | null;
}

/** @returns true while the prefix the fold was planned on still leads the live context (same entries, by uid). */
export function prefixStands(p: PendingFold, live: readonly { uid: string }[]): boolean {
  if (live.length < p.prefixUids.length) return false;
  return p.prefixUids.every((uid, i) => live[i]!.uid === uid);
}

/**
 * The layout of a planned fold over the transcript as it is now, whose first `split` items are the planned prefix:
 * the plan's instructions and pins from the prefix, and every item from `split` on (appended since, or kept by the
 * plan) kept verbatim, instructions among them hoisted. The safety rules are checked again when it is applied.
 * @returns a layout `applyFold` takes.
 */
export function layoutNow(plan: FoldTicket['plan'], transcript: Transcript): FoldLayout {
  const instructions = plan.instructions.filter((i) => i < plan.split);
  const tail: number[] = [];
  for (let i = plan.split; i < transcript.items.length; i++) {
    if (transcript.items[i]!.role === 'instructions') instructions.push(i);
    else tail.push(i);
  }
  return { fold: true, instructions, pinned: plan.pinned.filter((i) => i < plan.split), tail };
}

/** @returns the progress view of a fold in flight; `null` without one. */
export function progressOf(p: PendingFold | null | undefined, waiting: boolean): FoldProgress | null {
  if (!p) return null;
  const phase = p.outcome ? 'ready' : p.fallback ? 'replacing' : waiting ? 'waiting' : 'summarizing';
  const t = p.ticket;
  return {
    since: t.startedAt,
    phase,
    attempt: p.attempt,
    lastError: p.lastError,
    expected: {
      split: t.plan.split,
      prefixHash: t.prefixHash,
      archiveRange: t.archiveRange,
      tokensBefore: t.tokensBefore,
    },
  };
}

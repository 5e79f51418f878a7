/**
 * A fold summarized in the background: what it stands on, how it is doing, and the pure checks made when it is
 * applied at a later turn (does its prefix still lead the context? which items does it keep now?). Plain JSON, kept
 * in the conversation's state; a summary that is ready crosses continue-as-new with it.
 */
import type { FoldLayout } from '../core/fold/layout';
import type { SummaryMeta } from '../core/messages/adapter';
import type { Transcript } from '../core/messages/types';
import type { FoldTicket, SummaryOutcome } from './fold-step';

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
    archiveRange: FoldTicket['archiveRange'];
    tokensBefore: number;
  };
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

/**
 * The workflow's current details for the Temporal UI (markdown; setting them writes no history event).
 * @returns a few lines on the fold in flight, or on the last fold when none is.
 */
export function foldDetails(
  progress: FoldProgress | null,
  last: {
    number: number;
    ok: boolean;
    fallback?: boolean;
    finishedAt: number;
    error: { message: string } | null;
  } | null
): string {
  const lines: string[] = [];
  if (progress) {
    const range = progress.expected.archiveRange;
    const what = range ? `messages #${range.firstSeq}–#${range.lastSeq}` : `the first ${progress.expected.split} items`;
    lines.push(`**Compacting** (${progress.phase}): folding ${what} since ${new Date(progress.since).toISOString()}`);
    lines.push(`attempt ${progress.attempt}${progress.lastError ? `; last error: ${progress.lastError}` : ''}`);
  } else {
    lines.push('**Idle**: no fold in flight');
  }
  if (last) {
    const how = last.ok ? (last.fallback ? 'applied (offline fallback)' : 'applied') : `failed: ${last.error?.message}`;
    lines.push(`last fold #${last.number} ${how} at ${new Date(last.finishedAt).toISOString()}`);
  }
  return lines.join('\n\n');
}

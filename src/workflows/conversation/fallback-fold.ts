/**
 * The offline fallback of background folds: at the hard limit, when the model summary is not in within
 * `maxFoldWaitMs`, an extractive summary folds the same prefix at once; the model summary, when it arrives, replaces
 * the fallback's at a later `prepare` if that is still in the context and the result fits.
 */
import { foldedMeta } from '../../core/fold/apply';
import { adapterFor } from '../../core/messages/adapter-for-format';
import { triggerThreshold, type FoldPlan } from '../../core/plan';
import { summarizeOutcome, type FoldTicket, type SummaryOutcome } from '../fold/fold-step';
import type { ConversationState } from './conversation-state';
import type { FoldCommit, FoldOutcome } from './fold-run';
import { layoutNow, prefixStands, type PendingFold } from './pending-fold';

/** What the fallback needs of the conversation's folds. */
export interface FoldKit {
  state: ConversationState;
  commit: FoldCommit;
  /** Starts a fold of `plan` (its ticket). */
  begin: (plan: FoldPlan, estimate: number) => FoldTicket;
  /** Summarizes a ticket's head (`summarizeTicket`). */
  summarize: (ticket: FoldTicket, which: 'model' | 'fallback') => Promise<SummaryOutcome>;
  /** The calibrated estimate of the live context. */
  estimate: () => number;
}

/** The offline fallback at the hard limit, over the fold in flight's prefix when it still stands. */
export async function fallbackFold(kit: FoldKit, hardPlan: FoldPlan, estimate: number): Promise<FoldOutcome> {
  const s = kit.state.carried;
  const p = s.pendingFold;
  const transcript = kit.state.transcript();
  const same = p && !p.fallback && prefixStands(p, s.live);
  const ticket = same ? { ...p.ticket, tokensBefore: estimate } : kit.begin(hardPlan, estimate);
  const layout = same ? layoutNow(ticket.plan, transcript) : hardPlan;
  const meta = foldedMeta(transcript, layout);
  const outcome = await summarizeOutcome(() => kit.summarize(ticket, 'fallback'));
  const done = await kit.commit.finish(ticket, outcome, transcript, layout, { fallback: true });
  if (same && done.applied) {
    kit.state.noteFallback(p, {
      number: done.number,
      uids: done.applied,
      meta: { droppedCount: meta.droppedCount, summarizedIds: meta.summarizedIds },
    });
  }
  return { ...done, decision: `${done.decision} (offline fallback: no model summary within maxFoldWaitMs)` };
}

/** Swaps the model summary in for the offline fallback's, when that is still in the context and it fits. */
export async function replaceFallback(kit: FoldKit, p: PendingFold, outcome: SummaryOutcome): Promise<FoldOutcome> {
  const s = kit.state.carried;
  const fb = p.fallback!;
  const at = s.live.findIndex((e) => e.uid === fb.uids[0]);
  const intact = at >= 0 && fb.uids.every((uid, k) => s.live[at + k]?.uid === uid);
  if (!intact) return kit.commit.discard(p, `the fallback summary of fold ${fb.number} was folded again before it`);
  if (!outcome.ok)
    return kit.commit.finish(p.ticket, outcome, kit.state.transcript(), p.ticket.plan, { replaces: fb.number });
  const elements =
    outcome.summary.kind === 'text'
      ? [adapterFor(s.format!).summaryItem(outcome.summary.text.trim(), fb.meta)]
      : [...outcome.summary.items];
  const raws = kit.state.raws();
  const folded = [...raws.slice(0, at), ...elements, ...raws.slice(at + fb.uids.length)];
  const transcript = kit.state.transcript();
  const threshold = triggerThreshold(s.settings.budget, s.settings.triggerRatio);
  const ticket: FoldTicket = { ...p.ticket, tokensBefore: kit.estimate() };
  return kit.commit.finish(
    ticket,
    outcome,
    transcript,
    { ...p.ticket.plan, tail: [] },
    {
      replaces: fb.number,
      build: () => folded,
      accept: (tokensAfter) =>
        tokensAfter < threshold
          ? null
          : `the model summary would put the context at ${tokensAfter} tokens (hard limit ${threshold})`,
    }
  );
}

/**
 * How one conversation fold runs once decided: its summarizer call (`summarizeTicket`, an activity or, for the
 * offline fallback, a local one), then its end — completed with the shared fold step and committed (applied or
 * failed), discarded (a background fold not applied), or a truncation (no summary). Every end writes its fold record
 * to the state and the archive (`recordFold`).
 */
import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../../activities';
import type { HeadRef } from '../../activities/types';
import type { FoldLimits } from '../../contract/fold-limits';
import { groupDigits } from '../../visibility/current-details';
import { outcomeOfSummarizeFold } from '../fold/outcomes';
import { summarizeActivityOptions } from '../shared/activity-options';
import type { ConversationState } from './conversation-state';
import { archiveFoldRecord } from './archive-fold-record';
import { local } from './local-activities';
import type { DecisionClock } from './decision-clock';
import { dropAnchor } from '../../core/calibration';
import type { FoldRecord } from '../../core/fold/fold-record';
import { prefixHash } from '../../core/hash';
import type { Transcript } from '../../core/messages/types';
import type { FoldPlan } from '../../core/plan';
import type { PrepareResult } from '../../contract/definitions';
import { measureFolded } from '../fold/measure';
import type { layoutNow, PendingFold } from './pending-fold';
import { completeFold, type AppliedFold, type FoldTicket, type SummaryOutcome } from '../fold/fold-step';

/** What a fold decision did, for the reply to `prepare` and `compactNow`. */
export interface FoldOutcome {
  decision: string;
  fold?: PrepareResult['fold'];
}

/** The fields of a fold record that say no summarizer output was applied (truncations). */
const NO_OUTPUT = {
  output: null,
  firstKept: null,
  identifiers: null,
  usage: null,
  responseId: null,
  outputTypes: [] as string[],
  attempts: 0,
} as const;

/** The archive sequence numbers a plan takes out of the live context (filtered items too), as a range. */
export function archiveRangeOf(state: ConversationState, plan: FoldPlan): FoldRecord['archiveRange'] {
  const seqs = plan.dropped.map((i) => state.carried.live[i]!.seq).filter((q): q is number => q !== null);
  return seqs.length > 0 ? { firstSeq: Math.min(...seqs), lastSeq: Math.max(...seqs) } : null;
}

/** Ends the conversation's folds; remembers whether one was applied in this run. */
export class FoldCommit {
  /** True after a fold was applied in this run (the main loop may continue-as-new at that quiet point). */
  foldedThisRun = false;

  constructor(
    private readonly state: ConversationState,
    /** The calibrated estimate of the live context. */
    private readonly estimate: () => number,
    /** The time fold records read (a step's recorded time, else workflow time). */
    private readonly clock: DecisionClock
  ) {}

  /**
   * Completes a fold with the shared step, commits it, records it (state and archive) and reports it.
   * @returns the outcome for `prepare`, with the fold's number and the uids of the inserted summary elements.
   */
  async finish(
    ticket: FoldTicket,
    outcome: SummaryOutcome,
    transcript: Transcript,
    layout: FoldPlan | ReturnType<typeof layoutNow>,
    extra: {
      fallback?: boolean;
      replaces?: number;
      build?: () => unknown[];
      accept?: (tokensAfter: number) => string | null;
    }
  ): Promise<FoldOutcome & { number: number; applied: string[] | null }> {
    const s = this.state.carried;
    const number = this.state.nextFoldNumber();
    const calibration = dropAnchor(s.calibration);
    // The last reported context is no longer a prefix of this one: keep the ratio, forget the anchor.
    const measure = (a: AppliedFold): number => {
      const counts = new Map(a.inserted.map((raw, k) => [raw, a.counts[k] ?? 0]));
      const byRaw = new Map(s.live.map((e) => [e.raw, e.tokens]));
      return measureFolded(calibration, a.folded, (raw) => byRaw.get(raw) ?? counts.get(raw), s.fixedTokens);
    };
    const done = await completeFold({
      ticket,
      outcome,
      number,
      transcript,
      layout,
      backoff: s.backoff,
      budget: s.settings.budget,
      count: async (inserted) =>
        (await local.countTokens({ model: s.settings.model, format: s.format!, messages: inserted })).counts,
      measure,
      now: () => this.clock.now(),
      ...(extra.fallback !== undefined ? { fallback: extra.fallback } : {}),
      ...(extra.replaces !== undefined ? { replaces: extra.replaces } : {}),
      ...(extra.build ? { build: extra.build } : {}),
      ...(extra.accept ? { accept: extra.accept } : {}),
    });
    let uids: string[] | null = null;
    if (done.applied) {
      uids = this.state.commitFold(done.applied, number, calibration);
      this.state.carryLedger(outcome.ok ? (outcome.carry ?? null) : null);
      this.foldedThisRun = true;
    }
    this.state.recordFold(done.record, {
      // A model summary replacing a fallback leaves the back-off alone: its prefix is already folded.
      ...(extra.replaces === undefined ? { backoff: done.backoff } : {}),
      lastError: done.lastError,
    });
    await this.archive(done.record);
    const r = done.record;
    const what = extra.replaces !== undefined ? `replaced the fallback summary of fold ${extra.replaces}` : 'folded';
    return {
      number,
      applied: uids,
      decision: r.ok ? `${what}: ${ticket.plan.reason}` : `fold failed (${r.error?.kind}): ${r.error?.message}`,
      fold: {
        ok: r.ok,
        number,
        reason: r.ok ? ticket.plan.reason : (r.error?.message ?? ''),
        tokensBefore: r.tokensBefore,
        tokensAfter: r.tokensAfter ?? r.tokensBefore,
      },
    };
  }

  /** Records a background fold that is not applied. */
  async discard(p: PendingFold, why: string): Promise<FoldOutcome> {
    const outcome: SummaryOutcome = {
      ok: false,
      error: { kind: 'discarded', message: `not applied: ${why}` },
      nonRetryable: true,
      usage: p.outcome?.usage ?? null,
      responseId: p.outcome?.responseId ?? null,
      outputTypes: p.outcome?.outputTypes ?? [],
      attempts: p.outcome?.attempts ?? 0,
    };
    const number = this.state.nextFoldNumber();
    const t = p.ticket;
    const record: FoldRecord = {
      ...NO_OUTPUT,
      number,
      ok: false,
      split: t.plan.split,
      droppedCount: 0,
      tokensBefore: t.tokensBefore,
      tokensAfter: null,
      pinned: [...t.plan.pinned],
      prefixHash: t.prefixHash,
      error: outcome.error,
      archiveRange: t.archiveRange,
      startedAt: t.startedAt,
      finishedAt: this.clock.now(),
      usage: outcome.usage,
      responseId: outcome.responseId,
      outputTypes: outcome.outputTypes,
      attempts: outcome.attempts,
      ...(p.fallback ? { replaces: p.fallback.number } : {}),
    };
    this.state.recordFold(record);
    await this.archive(record);
    return { decision: `fold discarded: ${why}` };
  }

  /** Truncate mode: the oldest rounds leave without a summary (the archive keeps them). */
  async truncate(transcript: Transcript, plan: FoldPlan, estimate: number): Promise<FoldOutcome> {
    const number = this.state.nextFoldNumber();
    const at = this.clock.now();
    const archiveRange = archiveRangeOf(this.state, plan);
    const raws = this.state.raws();
    this.state.commitTruncate(transcript, plan);
    const record: FoldRecord = {
      ...NO_OUTPUT,
      number,
      ok: true,
      split: plan.split,
      droppedCount: plan.dropped.length,
      tokensBefore: estimate,
      tokensAfter: this.estimate(),
      pinned: [],
      prefixHash: prefixHash(raws.slice(0, plan.split)),
      error: null,
      archiveRange,
      startedAt: at,
      finishedAt: at,
    };
    this.state.recordFold(record);
    await this.archive(record);
    return {
      decision: `truncated: ${plan.reason}`,
      fold: {
        ok: true,
        number,
        reason: plan.reason,
        tokensBefore: estimate,
        tokensAfter: record.tokensAfter ?? estimate,
      },
    };
  }

  /** Writes `record` to the archive and holds it with the task times the write reported (a replay's from history). */
  private async archive(record: FoldRecord): Promise<void> {
    const written = await archiveFoldRecord({ conversationId: this.state.carried.conversationId, record });
    if (written) this.state.adoptFoldTimes(written);
  }
}

/**
 * Summarizes a ticket's head: with the conversation's summarizer, or offline for the fallback (local activity); the
 * conversation's instruction messages go along by reference, to lead the request, and a `compactNow` focus as it is.
 * @returns the activity's answer as a fold-step outcome.
 * @throws what the activity throws (`summarizeOutcome` classifies it).
 */
export async function summarizeTicket(
  state: ConversationState,
  limits: FoldLimits,
  ticket: FoldTicket,
  which: 'model' | 'fallback',
  focus?: string
): Promise<SummaryOutcome> {
  const s = state.carried;
  const ref = (i: number): HeadRef => {
    const e = s.live[i]!;
    // A rewritten message (clipped on arrival, or evicted) is read from the archive and clipped again if oversized.
    return e.seq === null ? { raw: e.raw } : e.rev === 0 ? { seq: e.seq } : { seq: e.seq, clipped: true };
  };
  const head = ticket.plan.summarize.map(ref);
  const system = ticket.plan.instructions.filter((i) => i < s.live.length).map(ref);
  const input = {
    conversationId: s.conversationId,
    format: s.format!,
    model: s.settings.model,
    budget: s.settings.budget,
    summarizer: which === 'model' ? s.settings.summarizer : { ...s.settings.summarizer, mode: 'extractive' as const },
    head,
    foldedTokens: ticket.plan.foldedTokens,
    keptTokens: ticket.plan.keptTokens,
    ...(ticket.plan.carriedRoomTokens !== undefined ? { carriedRoomTokens: ticket.plan.carriedRoomTokens } : {}),
    hotPaths: s.hotPaths,
    heartbeatMs: limits.summarizeHeartbeatIntervalMs,
    ...(system.length > 0 ? { system } : {}),
    ...(focus ? { focus } : {}),
    ...(s.ledger ? { ledger: s.ledger } : {}),
  };
  const run =
    which === 'model'
      ? proxyActivities<Activities>({
          ...summarizeActivityOptions(limits),
          summary: `summarize ${head.length} messages, ${groupDigits(input.foldedTokens)} tokens`,
        }).summarizeFold
      : local.summarizeFold;
  return outcomeOfSummarizeFold(await run(input));
}

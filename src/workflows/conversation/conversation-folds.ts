/**
 * The conversation workflow's folds, on the shared fold step (`fold-step.ts`):
 * - **background** (default): past `prefoldRatio` of the budget a fold is planned and summarized without blocking;
 *   `prepare` keeps returning the unfolded context, which still fits. The summary is applied at the next `prepare`
 *   after it is ready — the planned prefix is replaced, everything appended since stays after it, verbatim — unless
 *   the prefix was rewound or cleared meanwhile (then it is discarded). At the hard limit (`triggerRatio`) a `prepare`
 *   waits for the fold in flight at most `maxFoldWaitMs`, then applies the offline (extractive) fallback over the same
 *   prefix; the model summary, when it arrives, replaces the fallback's at a later `prepare`.
 * - **blocking** (`foldMode: 'blocking'`): a `prepare` at the trigger waits for the summarizer. Folds with the
 *   offline `extractive` summarizer are always made this way: it answers in milliseconds.
 * Progress is in `progress()` (the `state` query) and in the workflow's current details (Temporal UI).
 */
import { offlineSummarizer } from '../../contract/summarizer-settings';
import { CancellationScope, condition, proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../../activities';
import type { HeadRef, SummarizeFoldResult } from '../../activities/types';
import { applyCalibration, dropAnchor } from '../../core/calibration';
import { foldedMeta } from '../../core/fold/apply';
import { shouldBackOff, startsWith } from '../../core/fold/backoff';
import type { FoldRecord } from '../../core/fold/fold-record';
import { adapterFor } from '../../core/messages/adapter-for-format';
import type { Transcript } from '../../core/messages/types';
import { planFold, triggerThreshold, type FoldPlan } from '../../core/plan';
import { prefixHash } from '../../core/hash';
import type { ConversationState } from './conversation-state';
import type { PrepareResult } from '../../contract/definitions';
import { backoffDelays } from '../../contract/fold-limits';
import { summarizeActivityOptions } from '../shared/activity-options';
import { foldSettingsOf } from '../../contract/fold-settings';
import {
  beginFold,
  completeFold,
  summarizeOutcome,
  type AppliedFold,
  type FoldTicket,
  type SummaryOutcome,
} from '../fold/fold-step';
import { groupDigits } from '../../visibility/current-details';
import type { FoldProgress } from '../../contract/fold-progress';
import { layoutNow, prefixStands, progressOf, type PendingFold } from './pending-fold';
import { local } from './local-activities';
import { observeBackoff } from './observe';
import { planOptions, type RunLimits } from '../../contract/settings';
import { pinnedIndices } from './pins';

/** `compactNow`'s trigger: a threshold of 0 tokens for every budget the settings accept (up to 1 000 000). */
const FORCED_TRIGGER_RATIO = 1e-9;

/** The `auto` policy's default `targetRatio` (`CompactionOptions`). */
const DEFAULT_TARGET_RATIO = 0.5;

/** A failed prefix is tried again once a fold would take in this many more items (the `items` policy's default keep). */
const BACKOFF_ITEMS = 4;

/** What a fold decision during `prepare` did. */
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

export class ConversationFolds {
  /** True after a fold was applied in this run (the main loop may continue-as-new at that quiet point). */
  foldedThisRun = false;
  /** The blocking fold in flight (blocking mode), for the progress view. */
  private blocking: PendingFold | null = null;
  /** True while a `prepare` waits at the hard limit for the fold in flight. */
  private waiting = false;
  private scope: CancellationScope | null = null;

  constructor(
    private readonly state: ConversationState,
    private readonly limits: RunLimits,
    /** The calibrated estimate of the live context. */
    private readonly estimate: () => number,
    /** Refreshes the current details (rendered in one place, `visibility.ts`), metrics and search attributes. */
    private readonly onReport: () => void = () => {}
  ) {}

  /** True while a summarizer call runs in the background (the run must not continue-as-new then). */
  get inFlight(): boolean {
    return this.scope !== null;
  }

  /** Drops the fold in flight, stopping its summarizer call (a deleted conversation writes nothing back). */
  abandon(): void {
    if (this.state.carried.pendingFold) this.state.dropPendingFold();
    this.scope?.cancel();
  }

  /** @returns the fold in flight for the `state` query; `null` without one. */
  progress(): FoldProgress | null {
    return progressOf(this.state.carried.pendingFold ?? this.blocking, this.waiting);
  }

  /** Decides about folding at a `prepare`. */
  async atPrepare(): Promise<FoldOutcome> {
    const s = this.state.carried;
    if (!s.format || s.live.length === 0) return { decision: 'nothing to fold' };
    // The offline summarizer answers in milliseconds, as the fallback does: its folds are applied at once.
    const inline = foldSettingsOf(s.settings).foldMode === 'blocking' || offlineSummarizer(s.settings.summarizer);
    if (inline) {
      // A background fold left from before a switch to blocking is applied first.
      const ready = s.pendingFold ? await this.applyReady() : null;
      const now = await this.blockingFold(true);
      return ready
        ? {
            decision: `${ready.decision}; ${now.decision}`,
            ...((now.fold ?? ready.fold) ? { fold: now.fold ?? ready.fold } : {}),
          }
        : now;
    }
    return this.backgroundFold();
  }

  // ——— blocking ———

  /** Plans and, when the trigger is reached, runs one fold: summarize → validate → apply in one transition. */
  private async blockingFold(escalate: boolean): Promise<FoldOutcome> {
    const { plan, transcript, estimate } = this.plan(this.state.carried.settings.triggerRatio);
    if (plan.kind === 'truncate') return this.truncate(transcript, plan, estimate);
    if (!plan.fold) return { decision: plan.reason };
    if (this.backingOff(plan, escalate)) {
      return { decision: `backing off: the fold of this prefix failed before (${plan.reason})` };
    }
    const ticket = this.begin(plan, estimate);
    this.blocking = { ...this.pendingOf(ticket), outcome: null };
    this.report();
    let outcome: SummaryOutcome;
    try {
      outcome = await summarizeOutcome(() => this.summarize(ticket, 'model'));
    } finally {
      this.blocking = null;
    }
    return this.finish(ticket, outcome, transcript, plan, {});
  }

  // ——— compact now ———

  /**
   * `compactNow`: folds at once, as the conversation's policy would at the trigger (the trigger and the minimum fold
   * are waived; the policy's kept tail stays verbatim). A background fold in flight finishes first and is applied;
   * then what is left is folded, waiting for the summarizer, with `focus` in its request.
   * @returns what was done, with the fold's outcome, or why there was nothing to fold.
   */
  async foldNow(focus: string | undefined): Promise<FoldOutcome> {
    const s = this.state.carried;
    if (!s.format || s.live.length === 0) return { decision: 'nothing to fold: the context is empty' };
    const p = s.pendingFold;
    if (p && !p.outcome && !p.fallback) await condition(() => p.outcome !== null || s.pendingFold !== p);
    const ready = s.pendingFold ? await this.applyReady() : null;
    const { plan, transcript, estimate } = this.plan(FORCED_TRIGGER_RATIO, false, true);
    let now: FoldOutcome;
    if (plan.kind === 'truncate') now = await this.truncate(transcript, plan, estimate);
    else if (!plan.fold) now = { decision: `nothing to fold: ${plan.reason}` };
    else {
      const ticket = this.begin(plan, estimate);
      this.blocking = { ...this.pendingOf(ticket), outcome: null };
      this.report();
      let outcome: SummaryOutcome;
      try {
        outcome = await summarizeOutcome(() => this.summarize(ticket, 'model', focus));
      } finally {
        this.blocking = null;
      }
      now = await this.finish(ticket, outcome, transcript, plan, {});
    }
    return ready ? { decision: `${ready.decision}; ${now.decision}`, ...(now.fold ? { fold: now.fold } : {}) } : now;
  }

  // ——— background ———

  private async backgroundFold(): Promise<FoldOutcome> {
    const s = this.state.carried;
    const fs = foldSettingsOf(s.settings);
    const decisions: string[] = [];
    let fold: FoldOutcome['fold'];
    const note = (o: FoldOutcome | null): void => {
      if (!o) return;
      decisions.push(o.decision);
      if (o.fold) fold = o.fold;
    };
    note(await this.applyReady());
    let hard = this.plan(s.settings.triggerRatio);
    if (hard.plan.kind === 'truncate') return this.truncate(hard.transcript, hard.plan, hard.estimate);
    if (hard.plan.fold) {
      // At the hard limit: the fold in flight gets `maxFoldWaitMs` to finish; then the offline fallback applies.
      if (!s.pendingFold) {
        if (this.backingOff(hard.plan, true)) decisions.push('backing off: the fold of this prefix failed before');
        else this.start(hard.plan, hard.estimate);
      }
      const p = s.pendingFold;
      if (p && !p.outcome && !p.fallback && fs.maxFoldWaitMs > 0) {
        this.waiting = true;
        this.report();
        const waitedFrom = Date.now();
        try {
          await condition(() => p.outcome !== null || s.pendingFold !== p, fs.maxFoldWaitMs);
        } finally {
          this.waiting = false;
        }
        decisions.push(`at the hard limit: waited ${Date.now() - waitedFrom} ms for the fold in flight`);
        note(await this.applyReady());
        hard = this.plan(s.settings.triggerRatio);
      }
      if (hard.plan.fold) note(await this.fallbackFold(hard.plan, hard.estimate));
    } else if (!s.pendingFold) {
      const soft = this.plan(fs.prefoldRatio, true);
      if (soft.plan.fold && !this.backingOff(soft.plan, true)) {
        this.start(soft.plan, soft.estimate);
        decisions.push(`folding in the background: ${soft.plan.reason}`);
      } else {
        decisions.push(soft.plan.fold ? `backing off: the fold of this prefix failed before` : hard.plan.reason);
      }
    } else {
      decisions.push(`a fold is in flight (${this.progress()?.phase}); ${hard.plan.reason}`);
    }
    this.report();
    return { decision: decisions.join('; '), ...(fold ? { fold } : {}) };
  }

  /** Starts summarizing `plan`'s head in the background (one fold in flight at a time). */
  private start(plan: FoldPlan, estimate: number): void {
    const ticket = this.begin(plan, estimate);
    const p: PendingFold = this.pendingOf(ticket);
    this.state.startPendingFold(p);
    const scope = new CancellationScope();
    this.scope = scope;
    scope
      .run(() => summarizeOutcome(() => this.summarize(ticket, 'model')))
      .then(
        (outcome) => {
          this.state.settlePendingFold(p, outcome);
        },
        (err: unknown) => {
          // Cancelled because its prefix went away: already discarded.
          this.state.settlePendingFold(p, {
            ok: false,
            error: { kind: 'aborted', message: err instanceof Error ? err.message : String(err) },
            nonRetryable: false,
            usage: null,
            responseId: null,
            outputTypes: [],
            attempts: 0,
          });
        }
      )
      .finally(() => {
        if (this.scope === scope) this.scope = null;
        this.report();
      });
  }

  /** Applies (or discards) the background fold whose summary is in. @returns what happened; `null` when none is ready. */
  private async applyReady(): Promise<FoldOutcome | null> {
    const s = this.state.carried;
    const p = s.pendingFold;
    if (!p) return null;
    if (p.fallback) {
      if (!p.outcome) return null;
      this.state.dropPendingFold();
      return this.replaceFallback(p, p.outcome);
    }
    if (!prefixStands(p, s.live)) {
      // Rewound or cleared under it: stop the summarizer if it still runs, and say so in a record.
      this.state.dropPendingFold();
      this.scope?.cancel();
      return this.discard(p, 'its prefix was rewound or cleared while the summary was written');
    }
    if (!p.outcome) return null;
    this.state.dropPendingFold();
    const transcript = this.state.transcript();
    return this.finish(p.ticket, p.outcome, transcript, layoutNow(p.ticket.plan, transcript), { fallback: false });
  }

  /** The offline fallback at the hard limit, over the fold in flight's prefix when it still stands. */
  private async fallbackFold(hardPlan: FoldPlan, estimate: number): Promise<FoldOutcome> {
    const s = this.state.carried;
    const p = s.pendingFold;
    const transcript = this.state.transcript();
    const same = p && !p.fallback && prefixStands(p, s.live);
    const ticket = same ? { ...p.ticket, tokensBefore: estimate } : this.begin(hardPlan, estimate);
    const layout = same ? layoutNow(ticket.plan, transcript) : hardPlan;
    const meta = foldedMeta(transcript, layout);
    const outcome = await summarizeOutcome(() => this.summarize(ticket, 'fallback'));
    const done = await this.finish(ticket, outcome, transcript, layout, { fallback: true });
    if (same && done.applied) {
      this.state.noteFallback(p, {
        number: done.number,
        uids: done.applied,
        meta: { droppedCount: meta.droppedCount, summarizedIds: meta.summarizedIds },
      });
    }
    return { ...done, decision: `${done.decision} (offline fallback: no model summary within maxFoldWaitMs)` };
  }

  /** Swaps the model summary in for the offline fallback's, when that is still in the context and it fits. */
  private async replaceFallback(p: PendingFold, outcome: SummaryOutcome): Promise<FoldOutcome> {
    const s = this.state.carried;
    const fb = p.fallback!;
    const at = s.live.findIndex((e) => e.uid === fb.uids[0]);
    const intact = at >= 0 && fb.uids.every((uid, k) => s.live[at + k]?.uid === uid);
    if (!intact) return this.discard(p, `the fallback summary of fold ${fb.number} was folded again before it`);
    if (!outcome.ok)
      return this.finish(p.ticket, outcome, this.state.transcript(), p.ticket.plan, { replaces: fb.number });
    const elements =
      outcome.summary.kind === 'text'
        ? [adapterFor(s.format!).summaryItem(outcome.summary.text.trim(), fb.meta)]
        : [...outcome.summary.items];
    const raws = this.state.raws();
    const folded = [...raws.slice(0, at), ...elements, ...raws.slice(at + fb.uids.length)];
    const transcript = this.state.transcript();
    const threshold = triggerThreshold(s.settings.budget, s.settings.triggerRatio);
    const ticket: FoldTicket = { ...p.ticket, tokensBefore: this.estimate() };
    return this.finish(
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

  // ——— shared ———

  private plan(
    triggerRatio: number,
    soft = false,
    forced = false
  ): { plan: FoldPlan; transcript: Transcript; estimate: number } {
    const s = this.state.carried;
    const transcript = this.state.transcript();
    const counted = this.state.countedTokens();
    const estimate = this.estimate();
    const options = { ...planOptions(s.settings), triggerRatio, ...(forced ? { minFoldTokens: 0 } : {}) };
    const pinned = pinnedIndices(s.live);
    // Messages the caller pinned are kept verbatim by every fold, as `plan.pin` keeps what it selects.
    if (pinned.length > 0) options.pin = { ...options.pin, indices: [...(options.pin?.indices ?? []), ...pinned] };
    if (forced) {
      // Compact now keeps the share of the context a fold at the trigger would keep (the `auto` target, scaled down
      // with the context; the other policies keep what they always keep).
      const threshold = triggerThreshold(s.settings.budget, s.settings.triggerRatio);
      const share = Math.min(1, estimate / Math.max(1, threshold));
      options.targetRatio = Math.max(FORCED_TRIGGER_RATIO, (options.targetRatio ?? DEFAULT_TARGET_RATIO) * share);
    }
    if (soft && options.targetRatio === undefined) {
      // Planned early, applied later: aim lower, so that after the growth while it is written it lands where a fold
      // at the trigger would have (0.5 × 0.7 / 0.9 ≈ 0.39 of the budget with the defaults).
      options.targetRatio = (0.5 * triggerRatio) / s.settings.triggerRatio;
    }
    const plan = planFold({
      transcript,
      tokens: s.live.map((e) => e.tokens),
      fixedTokens: s.fixedTokens + (estimate - counted),
      options,
    });
    return { plan, transcript, estimate };
  }

  /**
   * Whether the planned prefix failed before and has not grown enough to try again — nor, with `escalate`, waited out
   * the escalating delay after consecutive failures. The growth margin is the `items` policy's default keep (4 items), not this plan's
   * tail: the auto policy may move its cut by a whole turn when one short message arrives.
   */
  private backingOff(plan: FoldPlan, escalate: boolean): boolean {
    const s = this.state.carried;
    const backoff = s.backoff;
    if (!backoff) return false;
    const skip = shouldBackOff(backoff, {
      raws: this.state.raws(),
      split: plan.split,
      tokens: this.estimate(),
      budget: s.settings.budget,
      keep: BACKOFF_ITEMS,
      ...(escalate ? { now: Date.now(), delays: backoffDelays(this.limits) } : {}),
    });
    if (skip) observeBackoff();
    return skip;
  }

  private begin(plan: FoldPlan, estimate: number): FoldTicket {
    return beginFold({
      plan,
      raws: this.state.raws(),
      tokensBefore: estimate,
      archiveRange: this.archiveRange(plan),
      startedAt: Date.now(),
    });
  }

  private pendingOf(ticket: FoldTicket): PendingFold {
    const s = this.state.carried;
    const backoff = s.backoff;
    const again = backoff !== null && startsWith(backoff, this.state.raws());
    return {
      ticket,
      prefixUids: s.live.slice(0, ticket.plan.split).map((e) => e.uid),
      attempt: again ? backoff.failures + 1 : 1,
      lastError: again ? (s.lastError?.message ?? null) : null,
      outcome: null,
      fallback: null,
    };
  }

  /** The archive sequence numbers a plan takes out of the live context (filtered items too), as a range. */
  private archiveRange(plan: FoldPlan): FoldRecord['archiveRange'] {
    const seqs = plan.dropped.map((i) => this.state.carried.live[i]!.seq).filter((q): q is number => q !== null);
    return seqs.length > 0 ? { firstSeq: Math.min(...seqs), lastSeq: Math.max(...seqs) } : null;
  }

  /**
   * Summarizes a ticket's head: with the conversation's summarizer, or offline for the fallback (local activity); the
   * conversation's instruction messages go along by reference, to lead the request, and a `compactNow` focus as it is.
   */
  private async summarize(ticket: FoldTicket, which: 'model' | 'fallback', focus?: string): Promise<SummaryOutcome> {
    const s = this.state.carried;
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
      foldedTokens: ticket.plan.summarize.reduce((sum, i) => sum + (s.live[i]?.tokens ?? 0), 0),
      hotPaths: s.hotPaths,
      heartbeatMs: this.limits.summarizeHeartbeatIntervalMs,
      ...(system.length > 0 ? { system } : {}),
      ...(focus ? { focus } : {}),
      ...(s.ledger ? { ledger: s.ledger } : {}),
    };
    const run =
      which === 'model'
        ? proxyActivities<Activities>({
            ...summarizeActivityOptions(this.limits),
            summary: `summarize ${head.length} messages, ${groupDigits(input.foldedTokens)} tokens`,
          }).summarizeFold
        : local.summarizeFold;
    return outcomeOf(await run(input));
  }

  /**
   * Completes a fold with the shared step, commits it, records it (state and archive) and reports it.
   * @returns the outcome for `prepare`, with the fold's number and the uids of the inserted summary elements.
   */
  private async finish(
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
    const measure = (a: AppliedFold): number => {
      const counts = new Map(a.inserted.map((raw, k) => [raw, a.counts[k] ?? 0]));
      const byRaw = new Map(s.live.map((e) => [e.raw, e.tokens]));
      const counted = a.folded.reduce<number>(
        (sum, raw) => sum + (byRaw.get(raw) ?? counts.get(raw) ?? 0),
        s.fixedTokens
      );
      // The last reported context is no longer a prefix of this one: keep the ratio, forget the anchor.
      return applyCalibration(calibration, counted);
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
      now: () => Date.now(),
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
    await local.recordFold({ conversationId: s.conversationId, record: done.record });
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
  private async discard(p: PendingFold, why: string): Promise<FoldOutcome> {
    const outcome: SummaryOutcome = {
      ok: false,
      error: { kind: 'discarded', message: `not applied: ${why}` },
      nonRetryable: true,
      usage: p.outcome?.usage ?? null,
      responseId: p.outcome?.responseId ?? null,
      outputTypes: p.outcome?.outputTypes ?? [],
      attempts: p.outcome?.attempts ?? 0,
    };
    const s = this.state.carried;
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
      finishedAt: Date.now(),
      usage: outcome.usage,
      responseId: outcome.responseId,
      outputTypes: outcome.outputTypes,
      attempts: outcome.attempts,
      ...(p.fallback ? { replaces: p.fallback.number } : {}),
    };
    this.state.recordFold(record);
    await local.recordFold({ conversationId: s.conversationId, record });
    return { decision: `fold discarded: ${why}` };
  }

  /** Truncate mode: the oldest rounds leave without a summary (the archive keeps them). */
  private async truncate(transcript: Transcript, plan: FoldPlan, estimate: number): Promise<FoldOutcome> {
    const s = this.state.carried;
    const number = this.state.nextFoldNumber();
    const at = Date.now();
    const archiveRange = this.archiveRange(plan);
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
    await local.recordFold({ conversationId: s.conversationId, record });
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

  /** Shows the fold in flight (or the last fold) in the workflow's current details; writes no history event. */
  private report(): void {
    this.onReport();
  }
}

/** The `summarizeFold` activity's result as a fold-step outcome (an unusable summary cannot improve by retrying). */
export function outcomeOf(r: SummarizeFoldResult): SummaryOutcome {
  const common = {
    usage: r.usage,
    responseId: r.responseId,
    outputTypes: r.outputTypes,
    attempts: r.attempts,
    ...(r.requestDigest !== undefined ? { requestDigest: r.requestDigest } : {}),
  };
  return r.ok
    ? { ok: true, summary: r.summary, identifiers: r.identifiers, ...(r.carry ? { carry: r.carry } : {}), ...common }
    : { ok: false, error: r.error, nonRetryable: true, ...common };
}

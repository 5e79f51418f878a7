/**
 * The conversation workflow's fold decisions, on the shared fold step (`../fold/`); how a decided fold runs and ends
 * is in `fold-run.ts`, the offline fallback in `fallback-fold.ts`:
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
import { CancellationScope, condition } from '@temporalio/workflow';
import { startsWith } from '../../core/fold/backoff';
import type { Transcript } from '../../core/messages/types';
import { keepVerbatim, triggerThreshold, type FoldPlan } from '../../core/plan';
import type { ConversationState } from './conversation-state';
import { foldSettingsOf } from '../../contract/fold-settings';
import { beginFold, summarizeOutcome, type FoldTicket, type SummaryOutcome } from '../fold/fold-step';
import { backsOff } from '../fold/backoff';
import { calibratedTriggerReason, planCalibrated } from '../fold/measure';
import type { FoldProgress } from '../../contract/fold-progress';
import { layoutNow, prefixStands, progressOf, type PendingFold } from './pending-fold';
import { observeBackoff } from './observe';
import { planOptions, type RunLimits } from '../../contract/settings';
import { pinnedIndices } from './pinned-messages';
import { fallbackFold, replaceFallback, type FoldKit } from './fallback-fold';
import { archiveRangeOf, FoldCommit, summarizeTicket, type FoldOutcome } from './fold-run';
import type { DecisionClock } from './decision-clock';

export type { FoldOutcome } from './fold-run';

/** A plan declined at its trigger: only the reason (the planner's lists are not built). */
interface NotYet {
  fold: false;
  kind: 'none';
  reason: string;
}

/** `compactNow`'s trigger: a threshold of 0 tokens for every budget the settings accept (up to 1 000 000). */
const FORCED_TRIGGER_RATIO = 1e-9;

/** The `auto` policy's default `targetRatio` (`CompactionOptions`). */
const DEFAULT_TARGET_RATIO = 0.5;

export class ConversationFolds {
  /** Ends each fold: commit, record, discard or truncate. */
  private readonly commit: FoldCommit;
  /** What the offline fallback needs of these folds. */
  private readonly kit: FoldKit;
  /** The blocking fold in flight (blocking mode), for the progress view. */
  private blocking: PendingFold | null = null;
  /** True while a `prepare` waits at the hard limit for the fold in flight. */
  private waiting = false;
  private scope: CancellationScope | null = null;

  constructor(
    private readonly state: ConversationState,
    private readonly limits: RunLimits,
    /** The time decisions and records read (a step's recorded time, else workflow time). */
    private readonly clock: DecisionClock,
    /** The calibrated estimate of the live context. */
    private readonly estimate: () => number,
    /** Refreshes the current details (rendered in one place, `visibility.ts`), metrics and search attributes. */
    private readonly onReport: () => void = () => {}
  ) {
    this.commit = new FoldCommit(state, estimate, clock);
    this.kit = {
      state,
      commit: this.commit,
      begin: (plan, tokens) => this.begin(plan, tokens),
      summarize: (ticket, which) => summarizeTicket(state, limits, ticket, which),
      estimate,
    };
  }

  /** True after a fold was applied in this run (the main loop may continue-as-new at that quiet point). */
  get foldedThisRun(): boolean {
    return this.commit.foldedThisRun;
  }

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
    if (this.foldsInline()) {
      // A background fold left from before a switch to blocking is applied first.
      const ready = s.pendingFold ? await this.applyReady() : null;
      const now = await this.blockingFold();
      return ready
        ? {
            decision: `${ready.decision}; ${now.decision}`,
            ...((now.fold ?? ready.fold) ? { fold: now.fold ?? ready.fold } : {}),
          }
        : now;
    }
    return this.backgroundFold();
  }

  /**
   * The decision of an ordinary `prepare`, taken without awaiting anything: no fold in flight, none due now, and in
   * background mode none to start.
   * @returns the outcome `atPrepare` would return; `null` when the step may fold (then `atPrepare` decides).
   */
  quietDecision(): FoldOutcome | null {
    const s = this.state.carried;
    if (!s.format || s.live.length === 0) return { decision: 'nothing to fold' };
    if (s.pendingFold) return null;
    const hard = this.plan(s.settings.triggerRatio);
    if (hard.plan.kind === 'truncate' || hard.plan.fold) return null;
    if (this.foldsInline()) return { decision: hard.plan.reason };
    if (this.plan(foldSettingsOf(s.settings).prefoldRatio, true).plan.fold) return null;
    this.report();
    return { decision: hard.plan.reason };
  }

  /** Whether folds are made within the `prepare` that needs them (blocking mode, or the offline summarizer). */
  private foldsInline(): boolean {
    const { settings } = this.state.carried;
    // The offline summarizer answers in milliseconds, as the fallback does: its folds are applied at once.
    return foldSettingsOf(settings).foldMode === 'blocking' || offlineSummarizer(settings.summarizer);
  }

  // ——— blocking ———

  /** Plans and, when the trigger is reached, runs one fold: summarize → validate → apply in one transition. */
  private async blockingFold(): Promise<FoldOutcome> {
    const { plan, transcript, estimate } = this.plan(this.state.carried.settings.triggerRatio);
    if (plan.kind === 'truncate') return this.commit.truncate(transcript, plan, estimate);
    if (!plan.fold) return { decision: plan.reason };
    if (this.backingOff(plan)) {
      return { decision: `backing off: the fold of this prefix failed before (${plan.reason})` };
    }
    const ticket = this.begin(plan, estimate);
    this.blocking = { ...this.pendingOf(ticket), outcome: null };
    this.report();
    let outcome: SummaryOutcome;
    try {
      outcome = await summarizeOutcome(() => summarizeTicket(this.state, this.limits, ticket, 'model'));
    } finally {
      this.blocking = null;
    }
    // The summary came with a stored activity completion, in a later task: the record's end is that task's time.
    this.clock.release();
    return this.commit.finish(ticket, outcome, transcript, plan, {});
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
    if (plan.kind === 'truncate') now = await this.commit.truncate(transcript, plan, estimate);
    else if (!plan.fold) now = { decision: `nothing to fold: ${plan.reason}` };
    else {
      const ticket = this.begin(plan, estimate);
      this.blocking = { ...this.pendingOf(ticket), outcome: null };
      this.report();
      let outcome: SummaryOutcome;
      try {
        outcome = await summarizeOutcome(() => summarizeTicket(this.state, this.limits, ticket, 'model', focus));
      } finally {
        this.blocking = null;
      }
      now = await this.commit.finish(ticket, outcome, transcript, plan, {});
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
    if (hard.plan.kind === 'truncate') return this.commit.truncate(hard.transcript, hard.plan, hard.estimate);
    if (hard.plan.fold) {
      // At the hard limit: the fold in flight gets `maxFoldWaitMs` to finish; then the offline fallback applies.
      if (!s.pendingFold) {
        if (this.backingOff(hard.plan)) decisions.push('backing off: the fold of this prefix failed before');
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
      if (hard.plan.fold) note(await fallbackFold(this.kit, hard.plan, hard.estimate));
    } else if (!s.pendingFold) {
      const soft = this.plan(fs.prefoldRatio, true);
      if (soft.plan.fold && !this.backingOff(soft.plan)) {
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
      .run(() => summarizeOutcome(() => summarizeTicket(this.state, this.limits, ticket, 'model')))
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
      return replaceFallback(this.kit, p, p.outcome);
    }
    if (!prefixStands(p, s.live)) {
      // Rewound or cleared under it: stop the summarizer if it still runs, and say so in a record.
      this.state.dropPendingFold();
      this.scope?.cancel();
      return this.commit.discard(p, 'its prefix was rewound or cleared while the summary was written');
    }
    if (!p.outcome) return null;
    this.state.dropPendingFold();
    const transcript = this.state.transcript();
    return this.commit.finish(p.ticket, p.outcome, transcript, layoutNow(p.ticket.plan, transcript), {
      fallback: false,
    });
  }

  // ——— shared ———

  /**
   * Plans a fold at `triggerRatio` (`soft`: planned early, for the background; `forced`: compact now).
   * @returns the plan, or, under the trigger, only why not: then nothing is read per message.
   */
  private plan(
    triggerRatio: number,
    soft = false,
    forced = false
  ): { plan: FoldPlan | NotYet; transcript: Transcript; estimate: number } {
    const s = this.state.carried;
    const transcript = this.state.transcript();
    const counted = this.state.countedTokens();
    const estimate = this.estimate();
    const base = { ...planOptions(s.settings), triggerRatio, ...(forced ? { minFoldTokens: 0 } : {}) };
    // An ordinary step is under the trigger: the planner would decline first thing, so its inputs are not built.
    const notYet = calibratedTriggerReason(base, estimate, s.live.length);
    if (notYet !== undefined) return { plan: { fold: false, kind: 'none', reason: notYet }, transcript, estimate };
    // Messages the caller pinned go to the planner through its keep-verbatim selector, so every fold keeps them.
    const options = keepVerbatim(base, pinnedIndices(s.live));
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
    const plan = planCalibrated({
      transcript,
      tokens: s.live.map((e) => e.tokens),
      fixedTokens: s.fixedTokens,
      counted,
      estimate,
      options,
    });
    return { plan, transcript, estimate };
  }

  /** Whether the planned prefix failed before and has not grown or waited enough to try again (`backsOff`). */
  private backingOff(plan: FoldPlan): boolean {
    const s = this.state.carried;
    const skip = backsOff(s.backoff, {
      raws: this.state.raws(),
      split: plan.split,
      tokens: this.estimate(),
      budget: s.settings.budget,
      now: this.clock.now(),
      limits: this.limits,
    });
    if (skip) observeBackoff();
    return skip;
  }

  private begin(plan: FoldPlan, estimate: number): FoldTicket {
    return beginFold({
      plan,
      raws: this.state.raws(),
      tokensBefore: estimate,
      archiveRange: archiveRangeOf(this.state, plan),
      startedAt: this.clock.now(),
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

  /** Shows the fold in flight (or the last fold) in the workflow's current details; writes no history event. */
  private report(): void {
    this.onReport();
  }
}

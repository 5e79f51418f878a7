/**
 * The conversation's handlers: each one runs under the mutex, calls activities, and hands their results to the
 * state class. Every error a caller can cause leaves as an `ApplicationFailure` (a plain Error would fail the
 * workflow task and wedge the conversation).
 */
import {
  ActivityFailure,
  ApplicationFailure,
  proxyActivities,
  proxyLocalActivities,
  workflowInfo,
} from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { HeadRef } from '../activities/types';
import type { FoldRecord } from '../core/fold/fold-record';
import { planFold, type FoldPlan } from '../core/plan';
import type { Transcript } from '../core/messages/types';
import { applyCalibration, dropAnchor, recordUsage, type Calibration } from '../core/calibration';
import { recordFailure, shouldBackOff, type BackoffMemory } from '../core/fold/backoff';
import { evictStaleToolResults } from '../core/fold/evict';
import { prefixHash } from '../core/hash';
import type { ConversationState } from './conversation-state';
import { AppendRejected } from './conversation-state';
import type { AppendInput, ConversationStateView, PrepareResult, RewindResult } from './definitions';
import { roundsFloorAsRecorded } from './behaviour-patches';
import { Mutex } from './mutex';
import {
  mergeSettings,
  planOptions,
  SettingsError,
  type ConversationSettings,
  type RunLimits,
  type SettingsPatch,
} from './settings';

const local = proxyLocalActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { maximumAttempts: 5, nonRetryableErrorTypes: ['InvalidInput'] },
});

/** Turns a caller mistake into a failure of just this update. */
function rejected(err: unknown): ApplicationFailure {
  if (err instanceof ApplicationFailure) return err;
  const message = err instanceof Error ? err.message : String(err);
  const type =
    err instanceof AppendRejected ? 'InvalidAppend' : err instanceof SettingsError ? 'InvalidSettings' : 'Rejected';
  return ApplicationFailure.create({ message, type, nonRetryable: true });
}

/** A failed prefix is tried again once a fold would take in this many more items (S2's default keep). */
const BACKOFF_ITEMS = 4;

/** The fields of a fold record that say no summarizer output was applied (failed folds and truncations). */
const NO_OUTPUT = {
  output: null,
  firstKept: null,
  identifiers: null,
  usage: null,
  responseId: null,
  outputTypes: [] as string[],
  attempts: 0,
} as const;

/** Outcome of deciding about a fold during `prepare`. */
interface FoldOutcome {
  decision: string;
  fold?: PrepareResult['fold'];
}

export class ConversationRunner {
  private readonly mutex = new Mutex();
  /** Updates handled in this run (the server caps a run at 2 000). */
  runUpdates = 0;
  /** Set after a fold; the main loop continues-as-new at such a quiet point when history has grown. */
  foldedThisRun = false;
  private folding: { since: number } | null = null;

  constructor(
    readonly state: ConversationState,
    private readonly limits: RunLimits
  ) {}

  /** Synchronous update validator: rejects bad appends before they reach history. */
  validateAppend(input: AppendInput): void {
    this.state.stage(input);
  }

  /** Synchronous validator of `configure`. */
  validateConfigure(patch: SettingsPatch): void {
    if (this.state.s.closed) throw new Error('the conversation is closed');
    mergeSettings(this.state.s.settings, patch);
  }

  /** `append` / `prepare`: store new messages; with `decide`, fold when the trigger is reached. */
  async append(input: AppendInput, decide: boolean): Promise<PrepareResult> {
    this.runUpdates++;
    return this.mutex.run(async () => {
      let staged;
      try {
        staged = this.state.stage(input);
      } catch (err) {
        throw rejected(err);
      }
      const s = this.state.s;
      if (input.reported) this.calibrate(input.reported.version, input.reported.usage.inputTokens);
      if (staged.messages.length > 0) {
        const ingested = await local.ingest({
          conversationId: s.conversationId,
          format: staged.format,
          model: s.settings.model,
          budget: s.settings.budget,
          firstSeq: staged.firstSeq,
          messages: staged.messages,
        });
        s.fixedTokens = ingested.fixedTokens;
        this.state.commitAppend(staged, ingested.counts, ingested.clipped, input.clientSeq);
        await this.evictAtTurnStart(s.live.length - staged.messages.length);
      } else {
        this.state.commitAppend(staged, [], [], input.clientSeq);
      }
      const outcome: FoldOutcome = decide ? await this.maybeFold() : { decision: 'append only: no fold decision' };
      const tokens = this.estimate();
      this.lastSent = { version: s.version, counted: this.state.countedTokens() };
      return {
        version: s.version,
        patch: this.state.patch(staged),
        tokens,
        budget: s.settings.budget,
        appended: staged.messages.length,
        decision: outcome.decision,
        ...(outcome.fold ? { fold: outcome.fold } : {}),
      };
    });
  }

  /** `append` signal: as the update, but errors can only be recorded. */
  async appendSignal(input: AppendInput): Promise<void> {
    try {
      await this.append(input, false);
    } catch (err) {
      this.state.s.lastError = { at: Date.now(), message: err instanceof Error ? err.message : String(err) };
    }
  }

  async rewind(): Promise<RewindResult> {
    this.runUpdates++;
    return this.mutex.run(() => {
      try {
        const removed = this.state.rewind();
        this.state.s.calibration = dropAnchor(this.state.s.calibration as Calibration | null);
        return { version: this.state.s.version, removed };
      } catch (err) {
        throw rejected(err);
      }
    });
  }

  async clear(): Promise<{ version: number }> {
    this.runUpdates++;
    return this.mutex.run(() => {
      try {
        this.state.clear();
        this.state.s.calibration = dropAnchor(this.state.s.calibration as Calibration | null);
      } catch (err) {
        throw rejected(err);
      }
      return { version: this.state.s.version };
    });
  }

  async configure(patch: SettingsPatch): Promise<ConversationSettings> {
    this.runUpdates++;
    return this.mutex.run(async () => {
      const s = this.state.s;
      let next: ConversationSettings;
      try {
        next = mergeSettings(s.settings, patch);
      } catch (err) {
        throw rejected(err);
      }
      if (next.model !== s.settings.model && s.live.length > 0 && s.format) {
        // Another model may use another vocabulary: every stored count must be redone with it.
        const counted = await local.countTokens({ model: next.model, format: s.format, messages: this.state.raws() });
        s.live.forEach((e, i) => (e.tokens = counted.counts[i] ?? e.tokens));
        s.fixedTokens = counted.replyPriming + counted.toolTokens;
        s.calibration = null;
      }
      s.settings = next;
      return next;
    });
  }

  async close(): Promise<{ version: number }> {
    this.runUpdates++;
    return this.mutex.run(() => {
      this.state.s.closed = true;
      return { version: this.state.s.version };
    });
  }

  /** True when this run should hand over to a new one (the main loop waits for handlers first). */
  shouldContinueAsNew(): boolean {
    if (this.mutex.busy) return false;
    const info = workflowInfo();
    const size = info.historySize ?? 0;
    return (
      info.continueAsNewSuggested ||
      this.runUpdates >= this.limits.maxUpdatesPerRun ||
      size >= this.limits.maxHistoryBytes ||
      info.historyLength >= this.limits.maxHistoryEvents ||
      // Right after a fold the state is at its smallest: a cheap moment to start a fresh history.
      (this.foldedThisRun && size >= this.limits.maxHistoryBytes / 4)
    );
  }

  /** The `state` query. */
  view(): ConversationStateView {
    const s = this.state.s;
    return {
      conversationId: s.conversationId,
      version: s.version,
      format: s.format,
      messages: s.live.length,
      archived: s.nextSeq,
      tokens: this.estimate(),
      budget: s.settings.budget,
      settings: s.settings,
      folds: s.foldCount,
      backoff: s.backoff,
      folding: this.folding,
      lastError: s.lastError,
      closed: s.closed,
      runUpdates: this.runUpdates,
      continuedAsNew: s.continuedAsNew,
      lastClientSeq: s.lastClientSeq,
    };
  }

  /** Counted tokens corrected by what the provider reported for earlier contexts. */
  estimate(): number {
    const counted = this.state.countedTokens();
    return applyCalibration(this.state.s.calibration as Calibration | null, counted);
  }

  private lastSent: { version: number; counted: number } | null = null;

  private calibrate(version: number, inputTokens: number): void {
    if (!this.lastSent || this.lastSent.version !== version) return;
    if (!(Number.isFinite(inputTokens) && inputTokens > 0)) return;
    this.state.s.calibration = recordUsage(this.state.s.calibration as Calibration | null, {
      estimated: this.lastSent.counted,
      reported: inputTokens,
    });
  }

  /**
   * S1's eviction, when enabled (`evictAtRatio`): stale tool outputs of the live context become pointers (their
   * originals stay archived) at the start of a user turn with the context at or above that share of the budget, and
   * inside a turn once the fold trigger is reached, before folding (S1 evicts first and compacts only if that is not
   * enough; agent sessions have few user turns and many tool calls).
   */
  private async evictAtTurnStart(firstNew: number): Promise<void> {
    const s = this.state.s;
    const ratio = s.settings.evictAtRatio ?? 0;
    if (!(ratio > 0) || !s.format) return;
    const transcript = this.state.transcript();
    const estimate = this.estimate();
    const turnStart = transcript.items.slice(firstNew).some((item) => item.turnStart);
    const atTrigger = estimate >= Math.floor(s.settings.budget * s.settings.triggerRatio);
    if (!(atTrigger || (turnStart && estimate >= ratio * s.settings.budget))) return;
    const { raws, offloaded } = evictStaleToolResults(transcript, { budget: s.settings.budget, hotPaths: s.hotPaths });
    if (offloaded.length === 0) return;
    const changed = offloaded.map((o) => raws[o.index]);
    const counted = await local.countTokens({ model: s.settings.model, format: s.format, messages: changed });
    this.state.commitEviction(
      offloaded.map((o, k) => ({ index: o.index, raw: raws[o.index], tokens: counted.counts[k] ?? 0 }))
    );
    s.calibration = dropAnchor(s.calibration as Calibration | null);
  }

  /** The archive sequence numbers a plan takes out of the live context (filtered items too), as a range. */
  private archiveRange(plan: FoldPlan): FoldRecord['archiveRange'] {
    const seqs = plan.dropped.map((i) => this.state.s.live[i]!.seq).filter((q): q is number => q !== null);
    return seqs.length > 0 ? { firstSeq: Math.min(...seqs), lastSeq: Math.max(...seqs) } : null;
  }

  /** S3 truncate mode: the oldest rounds leave without a summary (the archive keeps them). */
  private async truncate(transcript: Transcript, plan: FoldPlan, estimate: number): Promise<FoldOutcome> {
    const s = this.state.s;
    const number = ++s.foldCount;
    const at = Date.now();
    const archiveRange = this.archiveRange(plan);
    const raws = this.state.raws();
    this.state.commitTruncate(transcript, plan);
    s.calibration = dropAnchor(s.calibration as Calibration | null);
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

  /** Plans and, when the trigger is reached, runs one fold: summarize → validate → apply in one transition. */
  private async maybeFold(): Promise<FoldOutcome> {
    const s = this.state.s;
    if (!s.format || s.live.length === 0) return { decision: 'nothing to fold' };
    const transcript = this.state.transcript();
    const counted = this.state.countedTokens();
    const estimate = this.estimate();
    const plan = planFold({
      transcript,
      tokens: s.live.map((e) => e.tokens),
      fixedTokens: s.fixedTokens + (estimate - counted),
      options: roundsFloorAsRecorded(planOptions(s.settings)),
    });
    if (plan.kind === 'truncate') return this.truncate(transcript, plan, estimate);
    if (!plan.fold) return { decision: plan.reason };
    const raws = this.state.raws();
    const backoff = s.backoff as BackoffMemory | null;
    // The growth margin is S2's default keep (4 items), not this plan's tail: the auto policy may move its cut by a
    // whole turn when one short message arrives, which says nothing about whether the same summary would now work.
    if (
      backoff &&
      shouldBackOff(backoff, {
        raws,
        split: plan.split,
        tokens: estimate,
        budget: s.settings.budget,
        keep: BACKOFF_ITEMS,
      })
    ) {
      return { decision: `backing off: the fold of this prefix failed before (${plan.reason})` };
    }
    const number = ++s.foldCount;
    const startedAt = Date.now();
    this.folding = { since: startedAt };
    const head: HeadRef[] = plan.summarize.map((i) => {
      const e = s.live[i]!;
      // A rewritten message (clipped on arrival, or evicted) is read from the archive and clipped again if oversized.
      return e.seq === null ? { raw: e.raw } : e.rev === 0 ? { seq: e.seq } : { seq: e.seq, clipped: true };
    });
    const foldedTokens = plan.summarize.reduce((sum, i) => sum + (s.live[i]?.tokens ?? 0), 0);
    const base: Omit<
      FoldRecord,
      | 'ok'
      | 'output'
      | 'tokensAfter'
      | 'error'
      | 'finishedAt'
      | 'usage'
      | 'responseId'
      | 'outputTypes'
      | 'attempts'
      | 'identifiers'
      | 'firstKept'
    > = {
      number,
      split: plan.split,
      droppedCount: 0,
      tokensBefore: estimate,
      pinned: [...plan.pinned],
      prefixHash: prefixHash(raws.slice(0, plan.split)),
      archiveRange: this.archiveRange(plan),
      startedAt,
    };
    let record: FoldRecord;
    try {
      const summarize = proxyActivities<Activities>({
        startToCloseTimeout: this.limits.summarizeStartToCloseMs,
        heartbeatTimeout: this.limits.summarizeHeartbeatTimeoutMs,
        retry: { initialInterval: '1 second', maximumInterval: '1 minute', maximumAttempts: 8 },
      }).summarizeFold;
      const result = await summarize({
        conversationId: s.conversationId,
        format: s.format,
        model: s.settings.model,
        budget: s.settings.budget,
        summarizer: s.settings.summarizer,
        head,
        foldedTokens,
        hotPaths: s.hotPaths,
      });
      const common = {
        usage: result.usage,
        responseId: result.responseId,
        outputTypes: result.outputTypes,
        attempts: result.attempts,
      };
      if (result.ok) {
        const inserted = this.state.commitFold(transcript, plan, result.summary, number);
        const counted2 = await local.countTokens({ model: s.settings.model, format: s.format, messages: inserted });
        this.state.setCounts(inserted, counted2.counts);
        s.backoff = null;
        // The last reported context is no longer a prefix of this one: keep the ratio, forget the anchor.
        s.calibration = dropAnchor(s.calibration as Calibration | null);
        this.foldedThisRun = true;
        const firstKeptIndex = plan.tail[0];
        record = {
          ...base,
          ...common,
          ok: true,
          output: result.summary.kind,
          droppedCount: plan.dropped.length,
          tokensAfter: this.estimate(),
          error: null,
          identifiers: result.identifiers,
          firstKept:
            firstKeptIndex === undefined
              ? null
              : { index: firstKeptIndex, hash: prefixHash([transcript.items[firstKeptIndex]!.raw]) },
          finishedAt: Date.now(),
        };
      } else {
        s.backoff = recordFailure({ raws, split: plan.split, tokens: estimate });
        record = {
          ...base,
          ...NO_OUTPUT,
          ...common,
          ok: false,
          tokensAfter: null,
          error: result.error,
          finishedAt: Date.now(),
        };
      }
    } catch (err) {
      // The summarizer's provider refused (4xx) or kept failing past the retry policy: send unfolded, back off.
      const message =
        err instanceof ActivityFailure && err.cause
          ? err.cause.message
          : err instanceof Error
            ? err.message
            : String(err);
      s.backoff = recordFailure({ raws, split: plan.split, tokens: estimate });
      s.lastError = { at: Date.now(), message: `fold ${number} failed: ${message}` };
      record = {
        ...base,
        ...NO_OUTPUT,
        ok: false,
        tokensAfter: null,
        error: { kind: 'provider', message },
        finishedAt: Date.now(),
      };
    } finally {
      this.folding = null;
    }
    this.state.recordFold(record);
    await local.recordFold({ conversationId: s.conversationId, record });
    return {
      decision: record.ok ? `folded: ${plan.reason}` : `fold failed (${record.error?.kind}): ${record.error?.message}`,
      fold: {
        ok: record.ok,
        number,
        reason: record.ok ? plan.reason : (record.error?.message ?? ''),
        tokensBefore: record.tokensBefore,
        tokensAfter: record.tokensAfter ?? record.tokensBefore,
      },
    };
  }
}

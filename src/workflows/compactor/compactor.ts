/**
 * The embeddable compactor: for agent loops that already are Temporal workflows. The caller keeps its own full
 * transcript and, before each model call, asks `prepare(messages)` for the context to send. It runs the remembered-fold transform
 * with this project's core and activities: while the transcript still starts with the prefix the last fold replaced,
 * the remembered fold is reused (no summarizer call); when the context reaches the trigger it plans, summarizes the
 * head through the `summarize` activity (inline, no archive), applies and remembers the fold. A failed fold sends the
 * context unfolded and backs off from that prefix; it never throws.
 *
 * Workflow code: deterministic, no I/O but the two activities. Its state is plain JSON (`state()`), carried by the
 * caller across its continue-as-new and passed back to the constructor.
 */
import { ApplicationFailure, proxyActivities, proxyLocalActivities } from '@temporalio/workflow';
import type { Activities } from '../../activities';
import type { SummarizeInput } from '../../activities/summarize';
import { applyCalibration, dropAnchor, recordUsage } from '../../core/calibration';
import type { FoldError, FoldRecord } from '../../core/fold/fold-record';
import { prefixHash } from '../../core/hash';
import { detectFormat } from '../../core/messages/detect';
import { normalize } from '../../core/messages/normalize';
import type { MessageFormat, Transcript } from '../../core/messages/types';
import type { FoldPlan } from '../../core/plan';
import { contentKey, foldedMemory, PrefixMatcher, viewOf, type View } from './compactor-memory';
import { resolveCompactorOptions, type CompactorOptions, type ResolvedCompactorOptions } from './compactor-options';
import { planningWithTarget } from './compactor-target';
import { initialCompactorState, parseCompactorState, type CompactorState } from './compactor-state';
import { defaultFoldLimits } from '../../contract/fold-limits';
import { localActivityOptions, summarizeActivityOptions } from '../shared/activity-options';
import { backsOff } from '../fold/backoff';
import { beginFold, completeFold, summarizeOutcome } from '../fold/fold-step';
import { measureFolded, planCalibrated } from '../fold/measure';
import { outcomeOfSummarize } from '../fold/outcomes';
import { Mutex } from '../shared/mutex';

export type { CompactorOptions } from './compactor-options';
export type { CompactorState } from './compactor-state';
export { INVALID_COMPACTOR_OPTIONS } from './compactor-options';
export { INVALID_COMPACTOR_STATE } from './compactor-state';

/** Failure type of the `ApplicationFailure` thrown by `prepare` for a transcript that is not valid in its format. */
export const INVALID_TRANSCRIPT = 'InvalidTranscript';

/** What the last `prepare` did, for logs and tests. */
export interface PrepareReport {
  /** The caller's transcript length, and the length of the context returned. */
  messages: number;
  sent: number;
  /** Estimated tokens of the context returned (counted, calibrated by reported usage), and the budget. */
  tokens: number;
  budget: number;
  /** True when a remembered fold was reused; `forgot` when one was dropped because the prefix changed. */
  reused: boolean;
  forgot: boolean;
  /** Why the context is what it is (the planner's reason, a back-off, a fold outcome). */
  decision: string;
  /** Set when this call tried to fold. */
  fold?: { ok: boolean; number: number; tokensBefore: number; tokensAfter: number; error: FoldError | null };
}

type CountTokens = Activities['countTokens'];
type Summarize = Activities['summarize'];

/** Folds an agent's transcript before each model call, inside the agent's own workflow. */
export class Compactor {
  /** The options as resolved at construction (defaults filled in, checked). */
  private readonly options: ResolvedCompactorOptions;
  /** Everything carried across the caller's continue-as-new (`state()` hands out a copy). */
  private remembered: CompactorState;
  private readonly matcher = new PrefixMatcher();
  private readonly mutex = new Mutex();
  private readonly countTokens: CountTokens;
  private readonly summarize: Summarize;
  private report: PrepareReport | null = null;

  /**
   * Builds a compactor in the caller's workflow (the activities are proxied here, so call it from workflow code).
   * @param options budget, model, policy and the other planning options, summarizer settings, activity options.
   * @param saved what `state()` returned in an earlier run (carried across continue-as-new). @default a fresh state
   * @throws ApplicationFailure (non-retryable) of type `InvalidCompactorOptions` for bad options, or
   *   `InvalidCompactorState` for saved state that is not a compactor's.
   */
  constructor(options: CompactorOptions, saved?: unknown) {
    this.options = resolveCompactorOptions(options);
    this.remembered = saved === undefined || saved === null ? initialCompactorState() : parseCompactorState(saved);
    const a = this.options.activities;
    const local = proxyLocalActivities({ ...localActivityOptions, ...a.countTokens }) as unknown as Record<
      string,
      CountTokens
    >;
    const remote = proxyActivities({
      ...summarizeActivityOptions(defaultFoldLimits),
      ...a.summarize,
    }) as unknown as Record<string, Summarize>;
    this.countTokens = local[a.names?.countTokens ?? 'countTokens']!;
    this.summarize = remote[a.names?.summarize ?? 'summarize']!;
  }

  /**
   * The context to send for the caller's full transcript: the remembered fold's output in place of the
   * prefix it replaced while the transcript still starts with it, and a new fold when that view reaches the trigger.
   * Calls are serialised, so concurrent handlers of one workflow see each other's folds.
   * @param messages the whole transcript so far, in one wire format (not mutated; keep message objects unchanged).
   * @returns a new array: the caller's own message objects, plus summary elements where a fold stands.
   * @throws ApplicationFailure (non-retryable, type {@link INVALID_TRANSCRIPT}) for a malformed transcript;
   *   ActivityFailure when counting tokens fails past its retries; cancellation. A failed fold never throws.
   */
  async prepare(messages: readonly unknown[]): Promise<unknown[]> {
    return this.mutex.run(() => this.prepareNow(messages));
  }

  /**
   * Takes the provider's reported input tokens for the last context `prepare` returned into account, so later
   * estimates are calibrated to what the provider counts (bounded; see `core/calibration`).
   * @param inputTokens `usage.prompt_tokens` / `usage.input_tokens` of that model call. Ignored when not positive.
   */
  reportUsage(inputTokens: number): void {
    const sent = this.remembered.lastSent;
    if (!sent || !(Number.isFinite(inputTokens) && inputTokens > 0)) return;
    this.remembered.calibration = recordUsage(this.remembered.calibration, {
      estimated: sent.counted,
      reported: inputTokens,
    });
  }

  /** @returns the state as plain JSON data, to pass to the constructor after continue-as-new (read-only). */
  state(): CompactorState {
    return { ...this.remembered, counts: { ...this.remembered.counts }, folds: [...this.remembered.folds] };
  }

  /** @returns the most recent fold records, oldest first (at most `foldsKept`). */
  folds(): FoldRecord[] {
    return [...this.remembered.folds];
  }

  /** @returns what the last `prepare` did; null before the first. */
  lastPrepare(): PrepareReport | null {
    return this.report;
  }

  private async prepareNow(messages: readonly unknown[]): Promise<unknown[]> {
    if (!Array.isArray(messages)) throw invalidTranscript('messages must be an array');
    const format = this.options.format ?? detectIn(messages);
    this.adoptFormatAndModel(format);
    const v = viewOf(this.remembered.memory, messages, this.matcher);
    if (v.forgot) {
      this.remembered.memory = null;
      this.remembered.calibration = dropAnchor(this.remembered.calibration);
    }
    const transcript = readTranscript(v.view, format);
    const keys = await this.count(v.view, format);
    const tokens = keys.map((k) => this.remembered.counts[k] ?? 0);
    const counted = tokens.reduce((a, b) => a + b, this.remembered.fixedTokens);
    const estimate = this.estimate(keys, counted);
    const base = {
      messages: messages.length,
      budget: this.options.planning.budget,
      reused: v.base > 0,
      forgot: v.forgot,
    };
    const plan = planCalibrated({
      transcript,
      tokens,
      fixedTokens: this.remembered.fixedTokens,
      counted,
      estimate,
      options: planningWithTarget(this.options.planning, this.remembered.foldTarget, this.remembered.summaryReserve),
      ...(this.options.predicates ? { predicates: this.options.predicates } : {}),
    });
    const send = (context: unknown[], contextKeys: string[], decision: string, fold?: PrepareReport['fold']) => {
      const total = contextKeys.reduce((a, k) => a + (this.remembered.counts[k] ?? 0), this.remembered.fixedTokens);
      this.keepCounts(contextKeys);
      const last = contextKeys[contextKeys.length - 1];
      this.remembered.lastSent =
        last === undefined ? null : { length: contextKeys.length, lastKey: last, counted: total };
      const calibrated = applyCalibration(this.remembered.calibration, total);
      this.report = { ...base, sent: context.length, tokens: calibrated, decision, ...(fold ? { fold } : {}) };
      return context;
    };
    if (!plan.fold) return send(v.view, keys, plan.reason);
    const backingOff = backsOff(this.remembered.backoff, {
      raws: v.view,
      split: plan.split,
      tokens: estimate,
      budget: this.options.planning.budget,
      now: Date.now(),
      limits: defaultFoldLimits,
    });
    if (backingOff) {
      return send(v.view, keys, `backing off: the fold of this prefix failed before (${plan.reason})`);
    }
    const outcome = await this.fold(messages, v, transcript, plan, estimate, format);
    if (!outcome.folded) return send(v.view, keys, outcome.decision, outcome.report);
    // The fold step counted the inserted elements before committing: every key of the folded context has a count.
    return send(outcome.folded, outcome.folded.map(contentKey), outcome.decision, outcome.report);
  }

  /** Summarizes the plan's head with the shared fold step, applies and remembers the fold; on failure backs off. */
  private async fold(
    messages: readonly unknown[],
    v: View,
    transcript: Transcript,
    plan: FoldPlan,
    estimate: number,
    format: MessageFormat
  ): Promise<{ folded?: unknown[]; decision: string; report: NonNullable<PrepareReport['fold']> }> {
    const ticket = beginFold({ plan, raws: v.view, tokensBefore: estimate, startedAt: Date.now() });
    const input: SummarizeInput = {
      format,
      messages: plan.summarize.map((i) => v.view[i]),
      budget: this.options.planning.budget,
      model: this.options.model,
      foldedTokens: plan.foldedTokens,
      keptTokens: plan.keptTokens,
      ...(plan.carriedRoomTokens !== undefined ? { carriedRoomTokens: plan.carriedRoomTokens } : {}),
      summarizer: this.options.summarizer,
      ...(this.options.systemPrompt !== undefined ? { systemPrompt: this.options.systemPrompt } : {}),
      ...(this.remembered.ledger ? { ledger: this.remembered.ledger } : {}),
    };
    const outcome = await summarizeOutcome(async () => outcomeOfSummarize(await this.summarize(input)));
    const number = ++this.remembered.foldCount;
    // The last reported context is no longer a prefix of the folded one: keep the ratio, forget the anchor.
    const calibration = dropAnchor(this.remembered.calibration);
    const done = await completeFold({
      ticket,
      outcome,
      number,
      transcript,
      backoff: this.remembered.backoff,
      budget: this.options.planning.budget,
      count: async (inserted) => (await this.count(inserted, format)).map((k) => this.remembered.counts[k] ?? 0),
      measure: ({ folded }) =>
        measureFolded(
          calibration,
          folded,
          (raw) => this.remembered.counts[contentKey(raw)],
          this.remembered.fixedTokens
        ),
      now: () => Date.now(),
    });
    const record = done.record;
    this.pushRecord(record);
    const report = {
      ok: record.ok,
      number,
      tokensBefore: estimate,
      tokensAfter: record.tokensAfter ?? estimate,
      error: record.error,
    };
    this.remembered.backoff = done.backoff;
    if (!done.applied) {
      // Send unfolded; the same prefix would most likely fail the same way on the next turn, so back off from it.
      this.remembered.lastError = { at: record.finishedAt, message: done.lastError ?? `fold ${number} failed` };
      return { decision: `fold failed (${record.error?.kind}): ${record.error?.message}`, report };
    }
    const folded = done.applied.folded;
    const memory = foldedMemory(messages, v, folded);
    const hash = prefixHash(memory.prefix);
    this.matcher.remember(hash, memory.prefix);
    this.remembered.memory = { prefixLen: memory.prefixLen, prefixHash: hash, output: memory.output };
    this.remembered.calibration = calibration;
    this.remembered.ledger = outcome.ok ? (outcome.carry ?? null) : null;
    return { folded, decision: `folded: ${plan.reason}`, report };
  }

  /**
   * Counts the messages of `context` whose content has no count yet, in one `countTokens` call.
   * @returns the content key of each message, in order (every key has a count afterwards).
   */
  private async count(context: readonly unknown[], format: MessageFormat): Promise<string[]> {
    const keys = context.map(contentKey);
    const missing = new Map<string, unknown>();
    keys.forEach((k, i) => {
      if (this.remembered.counts[k] === undefined && !missing.has(k)) missing.set(k, context[i]);
    });
    if (missing.size === 0 && this.remembered.lastSent !== null) return keys;
    const result = await this.countTokens({
      model: this.options.model,
      format,
      messages: [...missing.values()],
      ...(this.options.tools ? { tools: this.options.tools } : {}),
    });
    [...missing.keys()].forEach((k, i) => (this.remembered.counts[k] = result.counts[i] ?? 0));
    this.remembered.fixedTokens = result.replyPriming + result.toolTokens;
    return keys;
  }

  /** The calibrated estimate; the anchor is dropped when this view does not extend the last one reported. */
  private estimate(keys: readonly string[], counted: number): number {
    const sent = this.remembered.lastSent;
    const extends_ = sent !== null && keys.length >= sent.length && keys[sent.length - 1] === sent.lastKey;
    if (!extends_) this.remembered.calibration = dropAnchor(this.remembered.calibration);
    return applyCalibration(this.remembered.calibration, counted);
  }

  /** Counts are per format and model: another of either makes them (and, for the format, the memory) stale. */
  private adoptFormatAndModel(format: MessageFormat): void {
    if (this.remembered.format !== format) {
      if (this.remembered.format !== null) this.remembered.memory = null;
      this.remembered.format = format;
      this.remembered.counts = {};
      this.remembered.lastSent = null;
    }
    if (this.remembered.model !== this.options.model) {
      this.remembered.model = this.options.model;
      this.remembered.counts = {};
      this.remembered.lastSent = null;
      this.remembered.calibration = null;
    }
  }

  /** Keeps the counts of the context just sent (the only ones the next turn can reuse), at most `maxCountEntries`. */
  private keepCounts(keys: readonly string[]): void {
    const kept: Record<string, number> = {};
    const recent = keys.slice(Math.max(0, keys.length - this.options.maxCountEntries));
    for (const k of recent) kept[k] = this.remembered.counts[k] ?? 0;
    this.remembered.counts = kept;
  }

  private pushRecord(record: FoldRecord): void {
    this.remembered.folds.push(record);
    if (this.remembered.folds.length > this.options.foldsKept)
      this.remembered.folds.splice(0, this.remembered.folds.length - this.options.foldsKept);
  }
}

/** Normalises a view, turning a malformed transcript into a non-retryable failure the caller can catch. */
function readTranscript(view: readonly unknown[], format: MessageFormat): Transcript {
  try {
    return normalize(view, format);
  } catch (err) {
    throw invalidTranscript(err instanceof Error ? err.message : String(err));
  }
}

/** The format of a view, from unambiguous evidence only. */
function detectIn(messages: readonly unknown[]): MessageFormat {
  try {
    return detectFormat(messages);
  } catch (err) {
    throw invalidTranscript(err instanceof Error ? err.message : String(err));
  }
}

function invalidTranscript(message: string): ApplicationFailure {
  return ApplicationFailure.create({ message: `compactor: ${message}`, type: INVALID_TRANSCRIPT, nonRetryable: true });
}

/**
 * The conversation's handlers: each one runs under the mutex, calls activities, and hands their results to the
 * state class. Every error a caller can cause leaves as an `ApplicationFailure` (a plain Error would fail the
 * workflow task and wedge the conversation).
 */
import { condition, proxyLocalActivities, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../../activities';
import { ConversationFolds, type FoldOutcome } from './conversation-folds';
import { dueEviction } from './due-eviction';
import type { ConversationState } from './conversation-state';
import { AppendRejected } from './conversation-state';
import {
  MAX_FOLD_WAIT_MS,
  type AppendInput,
  type ConversationStateView,
  type DeleteResult,
  type PrepareResult,
  type RewindInput,
  type RewindResult,
  type WaitForFoldInput,
  type WaitForFoldResult,
} from '../../contract/definitions';
import { local } from './local-activities';
import { localActivityOptions } from '../shared/activity-options';
import { ingestInput } from './ingest-input';
import { DecisionClock } from './decision-clock';
import { sameTools } from '../../contract/tool-schemas';
import { countedAt } from './sent-contexts';
import { withAbandonedAnswers } from './abandoned-calls';
import { SendAsIsCheck } from './send-as-is';
import { observeFold, observePrefix } from './observe';
import { showCurrentDetails, upsertConversationAttributes } from './visibility';
import { Mutex } from '../shared/mutex';
import { withoutIdleAwaits } from '../shared/idle-awaits';
import { compactNowResult, focusOf } from './compact-now';
import type { CompactNowInput, CompactNowResult } from '../../contract/compact-now';
import {
  mergeSettings,
  SettingsError,
  type ConversationSettings,
  type RunLimits,
  type SettingsPatch,
} from '../../contract/settings';
import { toFailure } from './guard';
import type { Lock } from './handle';
import { keepUnderByteBudget, overByteBudget } from './byte-budget';
import { appendShapeProblem, checkAppendProtocol } from './validate-append';
import { appendHash } from './append-checks';
import { appendStateProblem, validateRewind } from './handler-validators';
import {
  hasPinFlag,
  PinnedBudgetError,
  pinnedTokens,
  prepareRules,
  splitPinFlags,
  type PreparedRules,
} from './pinned-messages';
import type { Recount, StagedAppend } from './conversation-state';
import type { EntryKey } from '../../contract/patch';
import { prefixReuse, type PrefixReuse } from '../../contract/prefix-reuse';

/** The local activities with a summary the Temporal UI shows for this call ("ingest 3 messages"). */
const localAs = (summary: string) => proxyLocalActivities<Activities>({ ...localActivityOptions, summary });

/** Turns a caller mistake into a failure of just this update (see `toFailure`). */
function rejected(err: unknown): Error {
  return toFailure(err, 'update');
}

/** Whether an append's messages were stored when it failed: a caller's retry (same writer sequence) is then a no-op. */
interface Stored {
  stored: boolean;
  version?: number;
}

/** An append staged for storing: what the caller sent, split from its pin flags, with the answers of abandoned calls. */
interface Staging {
  /** Whether the append involves pinned messages or rules (`usesPinnedMessages`). */
  pinnedOrRules: boolean;
  split: ReturnType<typeof splitPinFlags> | null;
  hash: string | undefined;
  staged: StagedAppend;
  inLive: ReturnType<typeof withAbandonedAnswers>['inLive'];
  /** How many messages the caller sent (the reply's `appended`). */
  fromCaller: number;
  /** Positions in `staged.messages` of the messages pinned, and of those sent with a `pin` flag. */
  pinnedNew: number[];
  flaggedNew: number[];
}

/**
 * The conversation's handlers, one method per update, signal and validator (registered through `handle()` in
 * `conversation.ts`). Each hands what its activities return to `ConversationState`.
 */
export class ConversationHandlers {
  private readonly mutex = new Mutex(withoutIdleAwaits);
  /** Updates handled in this run (the server caps a run at 2 000). */
  runUpdates = 0;

  /** Runs a handler's body once every earlier one finished (the conversation's lock), counting it. */
  readonly serialised: Lock = (fn) => {
    this.runUpdates++;
    return this.mutex.run(fn);
  };

  /** Counts a handler that does not take the lock (it only waits). */
  readonly counted: Lock = (fn) => {
    this.runUpdates++;
    return fn();
  };
  private readonly folds: ConversationFolds;
  /** The time a step's decisions read: its `ingest`'s, kept in history. */
  private readonly clock = new DecisionClock();

  constructor(
    readonly state: ConversationState,
    private readonly limits: RunLimits
  ) {
    this.folds = new ConversationFolds(
      state,
      limits,
      this.clock,
      () => this.estimate(),
      () => this.publish()
    );
    this.observedFolds = state.carried.foldCount;
  }

  /** Runs `fn` before any handler that arrives later (they queue behind it). @returns when `fn` is done. */
  async initialize(fn: () => Promise<void>): Promise<void> {
    return this.mutex.run(fn);
  }

  /**
   * `prepare`: stores the new messages, folds when the trigger is reached, and replies with the context's patch.
   * @throws ApplicationFailure of the call's type; `details[0].stored` says whether the messages were stored.
   */
  async prepare(input: AppendInput): Promise<PrepareResult> {
    const stored: Stored = { stored: false };
    try {
      const appended = await this.store(input, stored);
      const outcome = (withoutIdleAwaits() && this.folds.quietDecision()) || (await this.folds.atPrepare());
      return this.reply(appended, outcome, true);
    } catch (err) {
      throw toFailure(err, 'prepare', stored);
    } finally {
      this.clock.release();
    }
  }

  /** `append`: as `prepare`, without a fold decision. */
  async append(input: AppendInput): Promise<PrepareResult> {
    const stored: Stored = { stored: false };
    try {
      const appended = await this.store(input, stored);
      return this.reply(appended, { decision: 'append only: no fold decision' }, false);
    } catch (err) {
      throw toFailure(err, 'append', stored);
    } finally {
      this.clock.release();
    }
  }

  /** The steps of storing an append: stage → fixed tokens → rules → ingest → lighten → place the rules. */
  private async store(input: AppendInput, stored: Stored): Promise<Staging> {
    const staging = this.stage(input);
    const awaitEach = !withoutIdleAwaits();
    if (awaitEach || this.fixedTokensDue(input)) await this.refreshFixedTokens(input);
    else this.takeReportedUsage(input);
    // Checked before anything is archived: pinned messages and rules over their share of the budget store nothing.
    const rules = staging.pinnedOrRules ? await this.prepareRulesFor(staging) : null;
    if (staging.staged.messages.length > 0) {
      await this.ingest(input, staging, stored);
      if (awaitEach || this.lighteningDue()) await this.lighten(staging.staged);
    } else {
      this.state.commitAppend(staging.staged, [], [], input.clientSeq, input.writer, staging.hash);
    }
    if (rules && this.state.carried.format) this.state.placeRules(rules);
    return staging;
  }

  /** Stages an append: pin flags split off, calls left unanswered given their answers, nothing committed yet. */
  private stage(input: AppendInput): Staging {
    const pinnedOrRules = this.usesPinnedMessages(input);
    // `pin` never reaches the model or the archive: the messages are stored without it, their entries marked.
    const split = pinnedOrRules ? splitPinFlags(input) : null;
    // What a numbered append sent, so a later reuse of its number with other messages is refused (validator).
    const hash = input.clientSeq !== undefined ? appendHash(input.messages) : undefined;
    let staged: StagedAppend;
    try {
      staged = this.state.stage(split ? split.input : input);
    } catch (err) {
      throw rejected(err);
    }
    const fromCaller = staged.messages.length;
    // The state's transcript (read once per version) lets an append whose context has no open call read only itself.
    const sameFormat = this.state.carried.format === staged.format;
    const abandoned = withAbandonedAnswers(
      this.state.carried.live,
      staged,
      sameFormat ? this.state.transcript().items : undefined
    );
    const positions = (of: Set<number> | undefined): number[] =>
      of ? abandoned.staged.sentIndex.flatMap((sent, i) => (of.has(sent) ? [i] : [])) : [];
    return {
      pinnedOrRules,
      split,
      hash,
      staged: abandoned.staged,
      inLive: abandoned.inLive,
      fromCaller,
      pinnedNew: positions(split?.pinned),
      flaggedNew: positions(split?.flagged),
    };
  }

  /** Recounts the tool definitions when an append changes them (or brings the start's), and takes in reported usage. */
  private async refreshFixedTokens(input: AppendInput): Promise<void> {
    const s = this.state.carried;
    if (this.fixedTokensDue(input)) {
      if (this.toolsChange(input)) this.state.useTools(input.tools!);
      await this.countFixedTokens(s.settings);
    }
    this.takeReportedUsage(input);
  }

  /** Whether the append's tools differ from the conversation's. */
  private toolsChange(input: AppendInput): boolean {
    return input.tools !== undefined && !sameTools(input.tools, this.state.carried.settings.tools);
  }

  /** Whether the tool definitions need counting: changed by this append, or given at start and not counted yet. */
  private fixedTokensDue(input: AppendInput): boolean {
    const s = this.state.carried;
    return this.toolsChange(input) || (s.toolTokens === undefined && (s.settings.tools?.length ?? 0) > 0);
  }

  /** Calibrates the estimate with the usage the provider reported for an earlier context, when the append has it. */
  private takeReportedUsage(input: AppendInput): void {
    const s = this.state.carried;
    if (input.reported) {
      const estimated = countedAt(s.sent, input.reported.version);
      this.state.calibrate(estimated, input.reported.usage.inputTokens);
    }
  }

  /** Archives and counts the staged messages (local activity `ingest`), then commits them to the live context. */
  private async ingest(input: AppendInput, staging: Staging, stored: Stored): Promise<void> {
    const s = this.state.carried;
    const { staged, inLive } = staging;
    const ingested = await localAs(`ingest ${staged.messages.length} messages`).ingest({
      ...ingestInput(s, staged),
      messages: [...staged.messages, ...inLive.map((r) => r.raw)],
    });
    this.clock.hold(ingested.at);
    this.state.setReplyPriming(ingested.fixedTokens);
    // A pinned message comes back to the caller without its flag: an insert in the patch, like a clipped one.
    const clipped = new Set(ingested.clipped.map((c) => c.index));
    const unflagged = staging.flaggedNew
      .filter((i) => !clipped.has(i))
      .map((i) => ({ index: i, raw: staged.messages[i], tokens: ingested.counts[i] ?? 0 }));
    this.state.commitAppend(
      staged,
      ingested.counts,
      [...ingested.clipped, ...unflagged],
      input.clientSeq,
      input.writer,
      staging.hash
    );
    const first = s.live.length - staged.messages.length;
    this.state.markPinned(staging.pinnedNew.map((i) => first + i));
    this.state.insertInLive(inLive, ingested.counts.slice(staged.messages.length));
    Object.assign(stored, { stored: true, version: s.version });
  }

  /** Whether `lighten` may have work: eviction is on (it decides when), or the live context is over its byte budget. */
  private lighteningDue(): boolean {
    return (this.state.carried.settings.evictAtRatio ?? 0) > 0 || overByteBudget(this.state);
  }

  /** Evicts stale tool outputs when due, then keeps the live context under its byte budget. */
  private async lighten(staged: StagedAppend): Promise<void> {
    const s = this.state.carried;
    await this.evictAtTurnStart(s.live.length - staged.messages.length);
    await keepUnderByteBudget(this.state, s.live.length - staged.messages.length, async (messages) => {
      const format = s.format ?? staged.format;
      const count = localAs(`count ${messages.length} lightened messages`).countTokens;
      return (await count({ model: s.settings.model, format, messages })).counts;
    });
  }

  /** The reply to `prepare` / `append`: the patch from the caller's mirror, tokens, the fold decision. */
  private reply(staging: Staging, outcome: FoldOutcome, prepared: boolean): PrepareResult {
    const s = this.state.carried;
    const folding = this.folds.progress();
    const tokens = this.estimate();
    const prefix = prepared ? this.notePrefixReuse() : undefined;
    this.state.noteSent({ version: s.version, counted: this.state.countedTokens() });
    return {
      version: s.version,
      patch: this.state.patch(staging.staged),
      tokens,
      budget: s.settings.budget,
      appended: staging.fromCaller,
      decision: outcome.decision,
      ...(outcome.fold ? { fold: outcome.fold } : {}),
      ...(folding ? { folding } : {}),
      ...(prefix ? { prefix } : {}),
      format: s.format,
      unanswered: s.settings.unanswered,
      ...(this.sendAsIs.check(this.state) ? { sendAsIs: true as const } : {}),
    };
  }

  /** Whether a reply's context goes out as it is stored (this run's; a new run reads its first context whole). */
  private readonly sendAsIs = new SendAsIsCheck();

  /** Keys of the context the last `prepare` returned, and its version (this run; a new run starts without one). */
  private lastPrepared: { keys: EntryKey[]; version: number } = { keys: [], version: -1 };

  /** Prefix reuse of the context being returned against the last one `prepare` returned; reported as metrics. */
  private notePrefixReuse(): PrefixReuse {
    const { carried: s } = this.state;
    const last = this.lastPrepared;
    // Only what changed since that context is compared and summed (the state knows from where it changed).
    const from = last.version < 0 ? 0 : this.state.unchangedBelow(last.version);
    const reuse = prefixReuse(last.keys, s.live, { from, contextTokens: this.state.liveTokens() });
    // An entry's key never changes in place (a rewrite replaces the entry): the shared prefix stays as it is.
    last.keys.length = reuse.messages;
    for (let i = reuse.messages; i < s.live.length; i++) last.keys.push(s.live[i]!);
    last.version = s.version;
    observePrefix(reuse);
    return reuse;
  }

  /**
   * Whether an append involves pinned messages or rules (so they are split and counted): a `pin` field, rules set or
   * in place.
   */
  private usesPinnedMessages(input: AppendInput): boolean {
    const s = this.state.carried;
    return hasPinFlag(input) || (s.settings.rules ?? []).length > 0 || this.state.holdsRules();
  }

  /**
   * Counts the pinned messages of an append and the rules element when it changes, and checks they fit their share
   * of the budget. @returns the rules change to place after the commit, or `null`.
   * @throws AppendRejected when pinned messages and rules would take more than a quarter of the budget.
   */
  private async prepareRulesFor({ staged, pinnedNew }: Staging): Promise<PreparedRules | null> {
    const s = this.state.carried;
    const format = s.format ?? staged.format;
    const count = async (messages: unknown[]): Promise<number[]> =>
      (await local.countTokens({ model: s.settings.model, format, messages })).counts;
    const added = pinnedNew.length > 0 ? await count(pinnedNew.map((i) => staged.messages[i])) : [];
    try {
      return await prepareRules({
        live: s.live,
        format,
        rules: s.settings.rules ?? [],
        budget: s.settings.budget,
        addedPinned: added.reduce((a, b) => a + b, 0),
        count: async (raw) => (await count([raw]))[0] ?? 0,
      });
    } catch (err) {
      throw err instanceof PinnedBudgetError ? new AppendRejected(err.message) : err;
    }
  }

  /** `append` signal: as the update, but errors can only be recorded. */
  async appendSignal(input: AppendInput): Promise<void> {
    try {
      checkAppendProtocol(input);
      const problem = appendShapeProblem(input);
      if (problem) throw new AppendRejected(problem);
      let refusal: Error | undefined;
      try {
        refusal = appendStateProblem(this.state, input);
      } catch (err) {
        refusal = err instanceof Error ? err : new AppendRejected(String(err));
      }
      if (refusal !== undefined) throw refusal;
      await this.serialised(() => this.append(input));
    } catch (err) {
      this.state.noteError(err instanceof Error ? err.message : String(err), Date.now());
    }
  }

  /** `rewind`: removes the last user turn. @throws VersionMismatch (typed) when `expectedVersion` is not current. */
  async rewind(input?: RewindInput): Promise<RewindResult> {
    try {
      validateRewind(this.state, input);
      const removed = this.state.rewind();
      return Promise.resolve({ version: this.state.carried.version, removed });
    } catch (err) {
      throw rejected(err);
    }
  }

  /** `clear`: empties the context but for instructions and pinned messages. */
  async clear(): Promise<{ version: number }> {
    try {
      this.state.clear();
    } catch (err) {
      throw rejected(err);
    }
    return Promise.resolve({ version: this.state.carried.version });
  }

  /** `configure`: merges a settings patch, recounting what another model or other tools change. */
  async configure(patch: SettingsPatch): Promise<ConversationSettings> {
    const s = this.state.carried;
    let next: ConversationSettings;
    try {
      next = mergeSettings(s.settings, patch);
    } catch (err) {
      throw rejected(err);
    }
    const pinsInvolved = (next.rules ?? []).length > 0 || pinnedTokens(s.live) > 0;
    let rules: PreparedRules | null = null;
    if (pinsInvolved && s.format) {
      try {
        rules = await prepareRules({
          live: s.live,
          format: s.format,
          rules: next.rules ?? [],
          budget: next.budget,
          addedPinned: 0,
          count: async (raw) =>
            (await local.countTokens({ model: next.model, format: s.format!, messages: [raw] })).counts[0] ?? 0,
        });
      } catch (err) {
        throw rejected(err instanceof PinnedBudgetError ? new SettingsError(err.message) : err);
      }
    }
    let recount: Recount | undefined;
    if (next.model !== s.settings.model && s.live.length > 0 && s.format) {
      // Another model may use another vocabulary: every stored count must be redone with it.
      recount = await localAs(`recount ${s.live.length} messages for ${next.model}`).countTokens({
        model: next.model,
        format: s.format,
        messages: this.state.raws(),
        tools: next.tools ?? [],
      });
    } else if (
      !sameTools(next.tools, s.settings.tools) ||
      (next.model !== s.settings.model && (next.tools?.length ?? 0) > 0)
    ) {
      await this.countFixedTokens(next);
    }
    this.state.configure(next, recount);
    if (rules) this.state.placeRules(rules);
    return next;
  }

  /** `close`: no call but queries is accepted after it. */
  async close(): Promise<{ version: number }> {
    return Promise.resolve({ version: this.state.close() });
  }

  /**
   * `delete`: stops a summary being written (nothing of it may be written back), erases the archive, then closes the
   * conversation. Run under the lock, so no append runs between the erasure and the close; when the erasure fails, the
   * conversation is left as it was (the purge is one transaction) and the update fails.
   */
  async delete(): Promise<DeleteResult> {
    this.folds.abandon();
    const erased = await localAs('erase the archive').purgeArchive();
    this.state.close();
    return erased;
  }

  /**
   * `waitForFold`: resolves once no fold is being summarized (its summary is ready for the next `prepare`, applied,
   * or failed), or after `timeoutMs`. Not serialised with the other handlers: it only waits.
   * @returns the fold still in flight (`null` when none) and the most recent fold record.
   */
  async waitForFold(input: WaitForFoldInput | undefined): Promise<WaitForFoldResult> {
    const timeoutMs = input?.timeoutMs;
    const settled = (): boolean => {
      const phase = this.folds.progress()?.phase;
      return phase === undefined || phase === 'ready';
    };
    const wait = timeoutMs ?? MAX_FOLD_WAIT_MS;
    if (!settled() && wait > 0) await condition(settled, wait);
    const folds = this.state.carried.folds;
    return { folding: this.folds.progress(), lastFold: folds[folds.length - 1] ?? null };
  }

  /** `compactNow`: folds now (`ConversationFolds.foldNow`). @returns the fold's outcome. */
  async compactNow(input: CompactNowInput | undefined): Promise<CompactNowResult> {
    return compactNowResult(await this.folds.foldNow(focusOf(input)), this.state.carried.version);
  }

  /** Counts what every request costs besides its messages: reply priming and the tool definitions. */
  private async countFixedTokens(settings: ConversationSettings): Promise<void> {
    const tools = settings.tools ?? [];
    const format = this.state.carried.format ?? 'chat';
    this.state.setFixedTokens(await local.countTokens({ model: settings.model, format, messages: [], tools }));
  }

  /** True when this run should hand over to a new one (the main loop waits for handlers first). */
  shouldContinueAsNew(): boolean {
    // A summary being written belongs to this run: hand over once it is in (it is bounded by schedule-to-close).
    if (this.mutex.busy || this.folds.inFlight) return false;
    const info = workflowInfo();
    const size = info.historySize ?? 0;
    return (
      info.continueAsNewSuggested ||
      this.runUpdates >= this.limits.maxUpdatesPerRun ||
      size >= this.limits.maxHistoryBytes ||
      info.historyLength >= this.limits.maxHistoryEvents ||
      // Right after a fold the state is at its smallest: a cheap moment to start a fresh history.
      (this.folds.foldedThisRun && size >= this.limits.maxHistoryBytes / 4)
    );
  }

  /** Fold records already reported to metrics and search attributes (records are numbered in order). */
  private observedFolds: number;

  /**
   * Refreshes what the Temporal UI shows: the current details after every handler and fold step (no history event)
   * and, when new fold records exist, the metrics sink and the search attributes (one history event).
   */
  publish(): void {
    const folds = this.state.carried.folds;
    const fresh = folds.filter((f) => f.number > this.observedFolds);
    if (fresh.length > 0) {
      fresh.forEach(observeFold);
      this.observedFolds = fresh[fresh.length - 1]!.number;
      upsertConversationAttributes(this.view());
    }
    showCurrentDetails(this.view(), folds[folds.length - 1] ?? null);
  }

  /** The `state` query. */
  view(): ConversationStateView {
    const s = this.state.carried;
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
      folding: this.folds.progress(),
      lastFold: s.folds[s.folds.length - 1] ?? null,
      lastError: s.lastError,
      closed: s.closed,
      runUpdates: this.runUpdates,
      continuedAsNew: s.continuedAsNew,
      lastClientSeq: s.lastClientSeq,
      calibration: s.calibration ?? null,
    };
  }

  /** Counted tokens corrected by what the provider reported for earlier contexts. */
  estimate(): number {
    return this.state.estimatedTokens();
  }

  /** Eviction of stale tool outputs, when due (see `due-eviction.ts`): the pointers are counted, then swapped in. */
  private async evictAtTurnStart(firstNew: number): Promise<void> {
    const due = dueEviction(this.state, firstNew);
    if (!due) return;
    const s = this.state.carried;
    const counted = await localAs(`count ${due.replaced.length} evicted tool outputs`).countTokens({
      model: s.settings.model,
      format: s.format!, // due only once the format is known
      messages: due.replaced.map((r) => r.raw),
    });
    this.state.commitEviction(due.replaced.map((r, k) => ({ ...r, tokens: counted.counts[k] ?? 0 })));
  }
}

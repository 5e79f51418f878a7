/**
 * `ConversationClient`: the typed front of one conversation. It keeps a mirror of the live context, applies the
 * small patches `prepare` returns, and re-reads the context by query (not recorded in history) only when its mirror
 * is stale. The caller never needs to know whether the workflow exists: the first call starts it.
 */
import { randomUUID } from 'node:crypto';
import {
  WithStartWorkflowOperation,
  WorkflowExecutionAlreadyStartedError,
  WorkflowUpdateFailedError,
  type Client,
  type WorkflowHandle,
} from '@temporalio/client';
import { NamespaceNotFoundError, WorkflowNotFoundError } from '@temporalio/common';
import type { FoldRecord } from '../core/fold/fold-record';
import { SendCache } from '../core/messages/send-cache';
import type { MessageFormat, Usage } from '../core/messages/types';
import { currentFormatName, type MessageFormatName } from '../core/messages/format-name';
import {
  appendUpdate,
  clearUpdate,
  closeUpdate,
  configureUpdate,
  contextQuery,
  conversationWorkflowId,
  foldsQuery,
  prepareUpdate,
  rewindUpdate,
  stateQuery,
  waitForFoldUpdate,
  writerSeqQuery,
  MAX_FOLD_WAIT_MS,
  type AppendInput,
  type FoldProgress,
  type WaitForFoldInput,
  type WaitForFoldResult,
  type ConversationStateView,
  type PrepareResult,
  type RewindInput,
  type RewindResult,
} from '../contract/definitions';
import type { conversationWorkflow } from '../workflows/conversation/conversation';
import { applyPatch } from '../contract/patch';
import { compactNowUpdate, type CompactNowInput, type CompactNowResult } from '../contract/compact-now';
import { FoldWatcher, type FoldProgressEvent } from './fold-progress';
import { startVisibility } from './start-visibility';
import { mergeStartSettings } from '../contract/fold-target';
import {
  defaultLimits,
  mergeLimits,
  SettingsError,
  type ConversationSettings,
  type RunLimits,
  type SettingsPatch,
} from '../contract/settings';
import { conversationIdProblem, formatProblem, writerIdProblem } from '../contract/conversation-id';
import {
  ConversationClosedError,
  ConversationRunEnded,
  ConversationUnavailableError,
  ConversationUpdateError,
  type Stored,
} from './errors';
import { isTransientServerAnswer, retryTransient, TryAgain } from './retry';
import { hasReached, noteReached } from './reached-namespaces';
import { PROTOCOL_VERSION } from '../contract/protocol-version';
import { OriginalsReader, type ArchiveReader } from './originals';
import { ArchiveError } from '../archive/archive';
import { recallFromArchive, type RecallArchive, type RecallOptions, type RecallResult } from '../archive/recall';
import { answerRecallCalls } from './recall-answer';
import type { RecallToolFormat } from './recall-tool';
import { refuseOversizedUpdate } from './update-size';
import { deleteConversation, type DeletedConversation } from './delete-conversation';

/** How to reach and create a conversation. */
export interface ConversationClientOptions {
  client: Client;
  conversationId: string;
  taskQueue: string;
  /** Settings for a conversation this client creates (ignored when it exists). */
  settings?: SettingsPatch;
  limits?: Partial<RunLimits>;
  /**
   * Wire format of a conversation this client creates (`chat`, `responses`, `typed` — `s0`, its former name, is read
   * too — `anthropic`, `gemini` or `ai-sdk`; ignored when it exists). Contexts are prepared for sending in the
   * conversation's stored format.
   * @default detected from the first messages; a conversation read as chat becomes Responses when Responses items
   *   arrive
   */
  format?: MessageFormatName;
  /**
   * Called with the progress of a background fold (in flight, attempt, last error, the pending activity) after a
   * `prepare` leaves one in flight, on every change until its summary is ready. @default none
   */
  onFoldProgress?: (event: FoldProgressEvent) => void;
  /** How often progress is read while a fold is in flight, ms. @default 1000 */
  foldProgressIntervalMs?: number;
  /**
   * How long a call keeps retrying transient server answers (worker down or replaying, server unavailable) before
   * it fails with `ConversationUnavailableError`. @default 120000
   */
  retryDeadlineMs?: number;
  /** This client's writer id (letters, digits, `. _ : @ -`). @default a random UUID per client instance */
  writerId?: string;
  /**
   * Workflow task timeout of a conversation this client creates: how long the server waits for a worker that took a
   * task and died before handing it to another (each SIGKILL of a worker costs up to this much).
   * @default the server's (10 s)
   */
  workflowTaskTimeoutMs?: number;
  /**
   * Read access to the conversation archive, e.g. `await openArchiveReader(loadConfig())` (the worker's archive
   * configuration, opened read-only). With it, `prepare` and `context` return the originals of the messages the byte
   * budget (`maxContextBytes`) lightened, read from the archive, so the model sees every message whole.
   * @default none: such messages carry a note naming their archived original instead of their images or long strings;
   *   `recall` and `answerRecall` need it (an archive, as `openArchiveReader` opens, has what they read)
   */
  archive?: ArchiveReader & Partial<RecallArchive>;
  /**
   * Start the conversation with its search attributes (ConversationTokens, …Folds, …Budget, …State), which the
   * workflow then keeps current. The namespace must know them (the embedded dev server registers them; on a cluster:
   * `temporal operator search-attribute create`, see docs/operations.md). @default true
   */
  searchAttributes?: boolean;
}

/** Thrown by the constructor for an invalid conversation id. */
export class InvalidConversationId extends Error {
  override readonly name = 'InvalidConversationId';
}

/** Thrown by the constructor for an invalid `writerId`. */
export class InvalidWriterId extends Error {
  override readonly name = 'InvalidWriterId';
}

/**
 * What `prepare` returns: the messages to send and how the context got there. `M` is the message type the caller
 * passed in (say, the openai SDK's `ChatCompletionMessageParam`), so the messages go straight to its SDK.
 */
export interface Prepared<M = unknown> {
  messages: M[];
  version: number;
  tokens: number;
  budget: number;
  fold?: PrepareResult['fold'];
  decision: string;
  /** The fold in flight after this call (summarized in the background), when there is one. */
  folding?: FoldProgress;
  /** The part of `messages` that repeats the previous `prepare`'s context as a prefix (prompt-cache reuse). */
  prefix?: PrepareResult['prefix'];
}

/**
 * How long past `retryDeadlineMs` a call may take: learning whether an append that ran out of time landed anyway,
 * or the reads after a stored call (settings, the context when the mirror is stale). No call takes longer than
 * `retryDeadlineMs` plus this.
 */
const ASK_AFTER_DEADLINE_MS = 3000;

export class ConversationClient {
  private mirror: unknown[] = [];
  /** Sends the mirror reading only what is new since the last send, when that gives the same context. */
  private readonly sender = new SendCache();
  /** The mirror's version: an empty mirror is the context at version 0, a new conversation's (read nothing first). */
  private version = 0;
  private sentVersion: number | undefined;
  private readonly watcher: FoldWatcher | undefined;
  private readonly originals: OriginalsReader | undefined;
  /** This client's writer id and the sequence number of its next append (a retry reuses the number). */
  readonly writerId: string;
  private nextSeq = 0;
  /**
   * Set when an append's outcome is unknown (server unreachable past the deadline). The same call made again reuses
   * its sequence number, so it is stored once whether or not the first one landed; any other append first learns
   * whether it landed.
   */
  private inDoubt: PendingAppend | undefined;
  private calls = 0;
  /** Appends of one client go one at a time, so its sequence numbers arrive in order. */
  private queue: Promise<unknown> = Promise.resolve();
  /** JSON of the tool definitions last sent with a `prepare`. */
  private sentTools: string | undefined;

  /**
   * @throws InvalidConversationId for an empty, too long (over 200) or non-ASCII id; InvalidWriterId for a bad
   *   `writerId`.
   * @throws SettingsError when `options.settings` or `options.limits` are invalid (checked here, before anything is
   *   sent, with the same rules the workflow applies).
   */
  constructor(private readonly options: ConversationClientOptions) {
    const problem = conversationIdProblem(options.conversationId);
    if (problem) throw new InvalidConversationId(problem);
    this.writerId = options.writerId ?? randomUUID();
    const badWriter = writerIdProblem(this.writerId, 'writerId');
    if (badWriter) throw new InvalidWriterId(badWriter);
    mergeStartSettings(options.settings);
    mergeLimits(defaultLimits, options.limits);
    const badFormat = options.format === undefined ? undefined : formatProblem(options.format);
    if (badFormat) throw new SettingsError(badFormat);
    if (options.archive) this.originals = new OriginalsReader(options.archive, this.workflowId, options.conversationId);
    if (options.onFoldProgress) {
      this.watcher = new FoldWatcher(
        () => this.handle(),
        options.onFoldProgress,
        options.foldProgressIntervalMs ?? 1000
      );
    }
  }

  /** The workflow id of this conversation. */
  get workflowId(): string {
    return conversationWorkflowId(this.options.conversationId);
  }

  private handle(): WorkflowHandle<typeof conversationWorkflow> {
    return this.options.client.workflow.getHandle(this.workflowId);
  }

  /**
   * Appends `newMessages`, folds when the budget calls for it, and returns the context to send now (tool results in
   * call order; unanswered calls handled per the conversation's `unanswered` setting).
   * @param opts.usage the provider's usage for the previous context this client sent, to calibrate the estimate.
   * @param opts.output the model's output for that context (one message or an array), appended before
   *   `newMessages` in the same update: one round trip per agent step instead of `record` + `prepare`.
   * @param opts.tools the tool definitions sent with the request: counted into every budget decision from now on
   *   (replaces `settings.tools`; sent to the workflow only when they differ from what this client sent last).
   * @throws ConversationUpdateError (a WorkflowUpdateFailedError) with the failure `type` (InvalidAppend names a bad
   *   message) and `stored` (false for every rejection of bad input).
   * @throws ConversationUnavailableError when the server stayed unavailable past `retryDeadlineMs`; `stored` says
   *   whether the messages were stored (`unknown` when that could not be learned either).
   * @typeParam M the type of the messages sent, taken as the type of the messages returned: they are in the same
   *   format (the conversation's), summaries and earlier messages included. @default unknown
   */
  async prepare<M = unknown>(
    newMessages: readonly M[],
    opts: { usage?: Pick<Usage, 'inputTokens'> & Partial<Usage>; output?: unknown; tools?: unknown[] } = {}
  ): Promise<Prepared<M>> {
    const deadline = this.callDeadline();
    const output: unknown[] =
      opts.output === undefined ? [] : Array.isArray(opts.output) ? (opts.output as unknown[]) : [opts.output];
    const tools = opts.tools !== undefined && JSON.stringify(opts.tools) !== this.sentTools ? opts.tools : undefined;
    const result = await this.send(prepareUpdate, [...output, ...newMessages], deadline, opts.usage, tools);
    if (tools !== undefined) this.sentTools = JSON.stringify(tools);
    this.sentVersion = result.version;
    if (result.folding) this.watcher?.watch();
    const send = await this.afterStored(() => this.sendOptions(result, deadline + ASK_AFTER_DEADLINE_MS));
    const whole = await this.afterStored(() => this.withOriginals(this.mirror));
    return {
      // The conversation's format is the caller's (see M).
      messages: this.sender.prepare(whole, send) as M[],
      version: result.version,
      tokens: result.tokens,
      budget: result.budget,
      decision: result.decision,
      ...(result.fold ? { fold: result.fold } : {}),
      ...(result.folding ? { folding: result.folding } : {}),
      ...(result.prefix ? { prefix: result.prefix } : {}),
    };
  }

  /**
   * Waits until no fold of this conversation is being summarized: its summary is ready (applied at the next
   * `prepare`), or it was applied, failed or discarded. For a "compacting…" indicator.
   * @param opts.timeoutMs give up after this long (0 to 600 000). @default 600000
   * @returns the fold still in flight (`phase: 'ready'` when its summary waits for the next `prepare`; another phase
   *   after a timeout; `null` when none) and the most recent fold record.
   */
  async waitForFold(opts: WaitForFoldInput = {}): Promise<WaitForFoldResult> {
    // Waiting changes nothing, so it is retried like a read, within the wait it asks for plus the retry deadline.
    const waitMs = typeof opts.timeoutMs === 'number' && opts.timeoutMs >= 0 ? opts.timeoutMs : MAX_FOLD_WAIT_MS;
    return this.retrying(
      () => this.handle().executeUpdate(waitForFoldUpdate, { args: [opts] }),
      this.callDeadline() + Math.min(waitMs, MAX_FOLD_WAIT_MS)
    );
  }

  /**
   * Folds now, like `/compact [focus]` in coding agents: the conversation's policy decides what stays verbatim (as it
   * would at the trigger), a fold in flight is finished first, and `focus` reaches the summary request. The mirror is
   * re-synced afterwards, so the next `prepare` sends the folded context.
   * @param opts.focus what the summary should keep above all (at most 2 000 characters). @default none
   * @returns whether it folded, the decision, the fold's outcome (`null` when nothing was tried) and the version.
   * @throws ConversationUpdateError `InvalidAppend` for a bad focus, `ConversationClosed` after `close()`.
   */
  async compactNow(opts: CompactNowInput = {}): Promise<CompactNowResult> {
    const deadline = this.callDeadline();
    const updateId = this.updateId('compactNow');
    // One update id for every retry: a retried call is answered by the first, never folds twice.
    const call = async (): Promise<CompactNowResult> => {
      try {
        return await this.handle().executeUpdate(compactNowUpdate, { args: [opts], updateId });
      } catch (err) {
        if (err instanceof WorkflowNotFoundError && (await this.runningOrAbsent()) === 'completed')
          throw new ConversationClosedError(
            `conversation '${this.options.conversationId}' is closed (its workflow completed)`,
            err
          );
        throw err;
      }
    };
    const result = await this.typed(this.retrying(call, deadline, 'unknown'));
    await this.afterStored(() => this.resync(deadline + ASK_AFTER_DEADLINE_MS));
    return result;
  }

  /** Appends the model's output — one message or an array of them — without deciding about a fold. */
  async record(messages: unknown): Promise<void> {
    await this.send(appendUpdate, Array.isArray(messages) ? messages : [messages], this.callDeadline(), undefined);
  }

  /**
   * The live context as the workflow holds it, with its version (re-syncs the mirror); with `archive`, lightened
   * messages are replaced by their originals.
   */
  async context(): Promise<{ version: number; messages: unknown[] }> {
    const snapshot = await this.resync();
    return { version: snapshot.version, messages: await this.withOriginals(snapshot.messages) };
  }

  private async resync(deadline?: number): Promise<{ version: number; messages: unknown[] }> {
    const snapshot = await this.retrying(() => this.handle().query(contextQuery), deadline);
    this.mirror = snapshot.messages;
    this.version = snapshot.version;
    return snapshot;
  }

  /** @returns the messages with the originals of lightened ones when an archive reader is configured. */
  private withOriginals(messages: unknown[]): Promise<unknown[]> {
    return this.originals ? this.originals.restore(messages) : Promise.resolve(messages);
  }

  async state(): Promise<ConversationStateView> {
    return this.retrying(() => this.handle().query(stateQuery));
  }

  /**
   * Searches this conversation's archive: the messages a query names by number (`#12`, `#12-#40`, a summary's
   * `(→ #12)`) and those holding every identifier or word it gives (`TCK-4821`, `"a phrase"`), originals with their
   * archive numbers, at most `maxMatches` (20) and `maxBytes` (64 KiB of JSON). Read from the archive directly (the
   * workflow is not involved: see docs/client.md), so it works for a closed conversation too.
   * @throws RecallQueryError for a query or option it cannot run; ArchiveError when the client has no `archive`
   *   option with `search` and `read`, or the archive cannot be read.
   */
  recall(query: string, options?: RecallOptions): Promise<RecallResult> {
    const archive = this.options.archive;
    if (!archive?.search || !archive.read)
      return Promise.reject(
        new ArchiveError(
          'recall reads the conversation archive: create the client with `archive: await openArchiveReader(config)`'
        )
      );
    return recallFromArchive(archive as RecallArchive, this.workflowId, query, options);
  }

  /**
   * Answers the model's `recall` calls (the tool `recallTool(format)` defines) in its `output`: the tool results to
   * append, in the conversation's format, `[]` when it made none (see `answerRecallCalls`).
   * @param options.format the format of `output`. @default the client's `format` option, else the conversation's
   * @throws what {@link recall} throws, except a query it refuses: that call is answered with `{error}`.
   */
  async answerRecall(output: unknown, options: RecallOptions & { format?: RecallToolFormat } = {}): Promise<unknown[]> {
    const { format: given, ...limits } = options;
    const mine = this.options.format === undefined ? undefined : currentFormatName(this.options.format);
    const format = given ?? mine ?? (await this.state()).format;
    if (format === null || format === 'typed')
      throw new RangeError(`answerRecall: the conversation's format (${String(format)}) has no tool calls`);
    return answerRecallCalls(output, format, (query) => this.recall(query, limits));
  }

  async folds(): Promise<FoldRecord[]> {
    return this.retrying(() => this.handle().query(foldsQuery));
  }

  /**
   * Removes the last round (for regenerate). With `expectedVersion` (say, the `version` `prepare` returned) it is
   * refused with `VersionMismatch` when the context moved on, and is retried through transient failures (without it,
   * a retry could remove a second round, so it is tried once).
   * @returns the removed messages.
   */
  async rewind(input: RewindInput = {}): Promise<RewindResult> {
    const deadline = this.callDeadline();
    const updateId = this.updateId('rewind');
    const call = (): Promise<RewindResult> => this.handle().executeUpdate(rewindUpdate, { args: [input], updateId });
    const once = (): Promise<RewindResult> => this.options.client.connection.withDeadline(deadline, call);
    const result = await this.typed(
      input.expectedVersion !== undefined ? this.retrying(call, deadline, 'unknown') : once()
    );
    await this.afterStored(() => this.resync(deadline + ASK_AFTER_DEADLINE_MS));
    return result;
  }

  /** Drops everything but the system messages (the archive keeps them). */
  async clear(): Promise<void> {
    const deadline = this.callDeadline();
    await this.typed(this.retrying(() => this.handle().executeUpdate(clearUpdate), deadline, 'unknown'));
    await this.afterStored(() => this.resync(deadline + ASK_AFTER_DEADLINE_MS));
  }

  async configure(patch: SettingsPatch): Promise<ConversationSettings> {
    refuseOversizedUpdate(configureUpdate.name, patch, 'InvalidSettings');
    this.readForSend = undefined;
    return this.typed(
      this.retrying(() => this.handle().executeUpdate(configureUpdate, { args: [patch] }), undefined, 'unknown')
    );
  }

  /** Ends the conversation; its workflow completes. */
  async close(): Promise<void> {
    await this.typed(this.retrying(() => this.handle().executeUpdate(closeUpdate), undefined, 'unknown'));
  }

  /**
   * Deletes the conversation for good (a deletion request, GDPR art. 17): its archive (messages, fold records,
   * revisions) is erased, its workflow closes, and every Temporal execution of it (histories, visibility) is deleted;
   * `export` then finds nothing. Works on a running, closed or absent conversation; deleting a deleted one erases
   * nothing and succeeds. This client can start the id afresh afterwards (a new, empty conversation).
   * @returns what was erased and how many workflow runs were deleted.
   * @throws ConversationUnavailableError when it did not finish within twice `retryDeadlineMs` (call it again).
   */
  async delete(): Promise<DeletedConversation> {
    const deleted = await this.typed(
      deleteConversation({
        client: this.options.client,
        conversationId: this.options.conversationId,
        workflowId: this.workflowId,
        taskQueue: this.options.taskQueue,
        deadline: this.callDeadline(),
        updateId: this.updateId('delete'),
      })
    );
    // A new conversation of this id numbers its writers' appends from 0 and has an empty context.
    this.mirror = [];
    this.version = 0;
    this.sentVersion = undefined;
    this.nextSeq = 0;
    this.inDoubt = undefined;
    this.seen = false;
    this.sentTools = undefined;
    this.readForSend = undefined;
    return deleted;
  }

  /** @returns when a call made now must have ended (its steps share it: a call never takes the deadline twice). */
  private callDeadline(): number {
    return Date.now() + (this.options.retryDeadlineMs ?? 120_000);
  }

  /** Runs `fn`, retrying transient answers, until the absolute time `deadline` (@default a fresh call deadline). */
  /**
   * Runs `fn` through transient answers until `deadline`.
   * @param stored what a caller is told about its effects when the deadline passes: `false` for a read or a wait,
   *   `'unknown'` for an update that changes the conversation. @default false
   * @throws ConversationUnavailableError once the deadline passed with only transient answers; any other error as is.
   */
  private async retrying<T>(fn: () => Promise<T>, deadline = this.callDeadline(), stored: Stored = false): Promise<T> {
    try {
      return await this.retryingRaw(fn, deadline);
    } catch (err) {
      if (isTransientServerAnswer(err) || this.namespaceVanished(err)) throw this.unavailable(err, '', stored);
      throw err;
    }
  }

  /** {@link retrying} leaving the last transient error as it is (an append settles its doubt from it). */
  private async retryingRaw<T>(fn: () => Promise<T>, deadline = this.callDeadline()): Promise<T> {
    const answered = await retryTransient(fn, {
      deadlineMs: deadline - Date.now(),
      // Every gRPC call of an attempt (an update's accept and its outcome polls too) ends by the deadline.
      bounded: (end, attempt) => this.options.client.connection.withDeadline(end, attempt),
      alsoTransient: (err) => this.namespaceVanished(err),
    });
    const { client } = this.options;
    noteReached(client, client.options.namespace);
    return answered;
  }

  /**
   * @returns true for the SDK's NamespaceNotFoundError once this client stored an append, or its Temporal `Client`
   *   reached the namespace through any call: a namespace that answered does not stop existing, but Temporal's
   *   frontend says so while its database restarts (an update it already applied can get that answer). For a client
   *   whose Temporal client never reached the namespace it stays final.
   */
  private namespaceVanished(err: unknown): boolean {
    if (!(err instanceof NamespaceNotFoundError)) return false;
    const { client } = this.options;
    return this.seen || hasReached(client, client.options.namespace);
  }

  /** Update failures as ConversationUpdateError (type and `stored`). */
  private async typed<T>(p: Promise<T>): Promise<T> {
    try {
      return await p;
    } catch (err) {
      throw err instanceof WorkflowUpdateFailedError && !(err instanceof ConversationUpdateError)
        ? ConversationUpdateError.from(err)
        : err;
    }
  }

  /** Runs a follow-up read of a call whose effects are stored: its failure must not look like "not stored". */
  private async afterStored<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      throw new ConversationUnavailableError(
        `the call was stored, but reading the context afterwards failed: ${err instanceof Error ? err.message : String(err)}`,
        true,
        err
      );
    }
  }

  private updateId(kind: string): string {
    return `${this.writerId}:${kind}:${++this.calls}`;
  }

  /**
   * How the context is normalised for sending: by the format and `unanswered` setting the `prepare` result carries
   * (current on every call, whoever configured the conversation), or, from a worker that does not return them, by
   * those the `state` query read once. A chat conversation may still become a Responses one, so chat is left to
   * detection; every other format is fixed once stored, and Gemini and AI SDK contexts cannot be told from chat by
   * detection alone (a summary's text part reads as chat).
   */
  private async sendOptions(
    result: PrepareResult,
    deadline: number
  ): Promise<{ unanswered: ConversationSettings['unanswered']; format?: MessageFormat }> {
    const { format, unanswered } =
      result.unanswered !== undefined && result.format !== undefined
        ? { format: result.format, unanswered: result.unanswered }
        : await this.sendSettings(deadline);
    return { unanswered, ...(format && format !== 'chat' ? { format } : {}) };
  }

  /** What the `state` query read once, for a worker whose results lack the format and `unanswered`. */
  private readForSend: SendSettings | undefined;
  private async sendSettings(deadline: number): Promise<SendSettings> {
    if (!this.readForSend) {
      const state = await this.retrying(() => this.handle().query(stateQuery), deadline);
      this.readForSend = { format: state.format, unanswered: state.settings.unanswered };
    }
    return this.readForSend;
  }

  /** One append at a time per client (its writer sequence numbers must arrive in order). */
  private send(
    update: typeof prepareUpdate,
    messages: unknown[],
    deadline: number,
    usage: (Pick<Usage, 'inputTokens'> & Partial<Usage>) | undefined,
    tools?: unknown[]
  ): Promise<PrepareResult> {
    const run = this.queue.then(() => this.sendNow(update, messages, deadline, usage, tools));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async sendNow(
    update: typeof prepareUpdate,
    messages: unknown[],
    deadline: number,
    usage: (Pick<Usage, 'inputTokens'> & Partial<Usage>) | undefined,
    tools: unknown[] | undefined
  ): Promise<PrepareResult> {
    const call = `${update.name}:${JSON.stringify(messages)}`;
    const doubt = this.inDoubt;
    let result: PrepareResult;
    if (doubt !== undefined && doubt.call === call) {
      // The same call again: the doubtful update itself is sent again (same update id, number and input).
      result = await this.attempt(doubt, deadline);
    } else {
      if (doubt !== undefined) await this.resolveDoubt(doubt, deadline);
      const clientSeq = this.nextSeq;
      const input: AppendInput = {
        messages,
        writer: this.writerId,
        clientSeq,
        protocol: PROTOCOL_VERSION,
        ...(tools !== undefined ? { tools } : {}),
        ...(usage && this.sentVersion !== undefined ? { reported: { version: this.sentVersion, usage } } : {}),
      };
      refuseOversizedUpdate(update.name, input, 'InvalidAppend');
      // Retries of this call keep its update id (the server de-duplicates within a run) and its writer sequence
      // number (the workflow de-duplicates across runs and crashes).
      result = await this.attempt(
        { seq: clientSeq, call, update, input, updateId: this.updateId(`${clientSeq}`) },
        deadline
      );
    }
    if (result.patch.baseVersion === this.version) {
      this.mirror = applyPatch([...this.mirror, ...messages], result.patch);
      this.version = result.version;
    } else {
      await this.afterStored(() => this.resync(deadline + ASK_AFTER_DEADLINE_MS));
    }
    return result;
  }

  /** Set once an append of this client was stored: from then on no call of this client starts the conversation. */
  private seen = false;

  /**
   * An append sent to the running conversation, without starting one.
   * @throws ConversationRunEnded when the conversation's run ended; the update's own errors otherwise.
   */
  private async toRunning(append: PendingAppend): Promise<PrepareResult> {
    try {
      return await this.handle().executeUpdate(append.update, { args: [append.input], updateId: append.updateId });
    } catch (err) {
      // A closed conversation: update-with-start gets the server's refusal, which names it closed.
      if (err instanceof WorkflowNotFoundError && (await this.runningOrAbsent()) === 'completed') {
        return this.updateWithStart(append);
      }
      throw err;
    }
  }

  /**
   * Sends one append (retrying transient answers until `deadline`) and settles its number: used on success or when
   * stored, kept free when refused, and in doubt (kept for the next call to settle) when the deadline passed.
   * @throws ConversationUpdateError when the workflow refused it; ConversationUnavailableError at the deadline.
   */
  private async attempt(append: PendingAppend, deadline: number): Promise<PrepareResult> {
    try {
      let attempts = 0;
      const result = await this.retryingRaw(
        () =>
          this.dropSafe(async () => {
            // Once this client saw the conversation, and for any retry, the call goes to the running conversation
            // only: one that ended meanwhile (an operator terminated it) is not started again with this call.
            if (this.seen || (++attempts > 1 && (await this.runningOrAbsent()) === 'running')) {
              return this.toRunning(append);
            }
            return this.updateWithStart(append);
          }),
        deadline
      );
      this.nextSeq = append.seq + 1;
      this.inDoubt = undefined;
      this.seen = true;
      return result;
    } catch (err) {
      if (err instanceof WorkflowUpdateFailedError) {
        const typed = ConversationUpdateError.from(err);
        // A rejected append stored nothing, so its number is free for the next one; a stored one used it.
        this.nextSeq = typed.stored === true ? append.seq + 1 : append.seq;
        this.inDoubt = undefined;
        throw typed;
      }
      // The workflow of a closed conversation completed, and the start's reuse policy refuses to run it again.
      if (err instanceof WorkflowExecutionAlreadyStartedError) {
        const id = this.options.conversationId;
        throw new ConversationClosedError(`conversation '${id}' is closed (its workflow completed)`, err);
      }
      // Anything else but a transient answer was refused before it ran.
      if (!isTransientServerAnswer(err) && !this.namespaceVanished(err)) throw err;
      this.inDoubt = append;
      throw this.unavailable(err, '', await this.storedAfterAll(append.seq, deadline + ASK_AFTER_DEADLINE_MS));
    }
  }

  /** One update-with-start of an append: starts the conversation when it does not exist yet. */
  private updateWithStart(append: PendingAppend): Promise<PrepareResult> {
    const { conversationId, taskQueue, settings, limits, format } = this.options;
    return this.options.client.workflow.executeUpdateWithStart(append.update, {
      args: [append.input],
      updateId: append.updateId,
      startWorkflowOperation: new WithStartWorkflowOperation<typeof conversationWorkflow>('conversationWorkflow', {
        workflowId: this.workflowId,
        taskQueue,
        args: [
          {
            conversationId,
            protocol: PROTOCOL_VERSION,
            ...(settings ? { settings } : {}),
            ...(limits ? { limits } : {}),
            ...(format ? { format } : {}),
          },
        ],
        ...startVisibility(conversationId, settings, this.options.searchAttributes ?? true),
        workflowIdConflictPolicy: 'USE_EXISTING',
        ...(this.options.workflowTaskTimeoutMs ? { workflowTaskTimeout: this.options.workflowTaskTimeoutMs } : {}),
        // A closed conversation stays closed; only a failed start (bad start input, nothing stored) may be redone.
        workflowIdReusePolicy: 'ALLOW_DUPLICATE_FAILED_ONLY',
      }),
    });
  }

  /**
   * Runs one attempt of an update whose run already exists: a "not found" for it means the server no longer holds the
   * update (dropped with a failed workflow task, or its run ended before the update was taken), not that the
   * conversation is gone (update-with-start would have started it), so it is sent again ({@link TryAgain}).
   */
  private async dropSafe<T>(attempt: () => Promise<T>): Promise<T> {
    try {
      return await attempt();
    } catch (err) {
      if (err instanceof WorkflowNotFoundError) throw new TryAgain(`update dropped: ${err.message}`, { cause: err });
      throw err;
    }
  }

  /**
   * Whether this call's retry may start the conversation: only when it does not exist yet.
   * @returns 'running' when its latest run is running, 'absent' when there is none, 'completed' when it was closed.
   * @throws ConversationRunEnded when the latest run ended otherwise (terminated, failed, timed out) while the call
   *   was retried.
   */
  private async runningOrAbsent(): Promise<'running' | 'absent' | 'completed'> {
    let status: string;
    try {
      status = (await this.handle().describe()).status.name;
    } catch (err) {
      if (err instanceof WorkflowNotFoundError) return 'absent';
      throw err;
    }
    if (status === 'RUNNING') return 'running';
    // `close` is the only way a conversation's workflow completes; starting it again is refused by the reuse policy.
    if (status === 'COMPLETED') return 'completed';
    throw new ConversationRunEnded(
      `the conversation's run ended (${status}) while this call was being retried; it was not started again`
    );
  }

  /** @returns the error for a call the server or worker did not answer before the deadline. */
  private unavailable(err: unknown, while_: string, stored: Stored): ConversationUnavailableError {
    const why = err instanceof Error ? err.message : String(err);
    const ms = this.options.retryDeadlineMs ?? 120_000;
    return new ConversationUnavailableError(
      `the conversation stayed unavailable for ${ms} ms${while_}: ${why}`,
      stored,
      err
    );
  }

  /**
   * @returns true when this writer's append `seq` is stored, else `unknown` (asked in one short attempt by `until`:
   *   the caller already waited the whole deadline, and a query no worker answers waits longer). "Not applied yet"
   *   is not "not stored": an update the server accepted but no worker ran yet lands later, so the doubt stays for
   *   the next call to settle.
   */
  private async storedAfterAll(seq: number, until: number): Promise<Stored> {
    const askFor = Math.min(ASK_AFTER_DEADLINE_MS, this.options.retryDeadlineMs ?? 120_000);
    try {
      const last = await this.options.client.connection.withDeadline(Math.min(until, Date.now() + askFor), () =>
        this.handle().query(writerSeqQuery, this.writerId)
      );
      if (last < seq) return 'unknown';
      this.inDoubt = undefined;
      this.nextSeq = seq + 1;
      return true;
    } catch {
      return 'unknown';
    }
  }

  /**
   * Settles an append whose outcome was unknown before the next one is numbered, by sending it again (same update
   * id, number and input): the server answers for the pending update, or takes it again if it dropped it, and the
   * workflow stores it once either way. Asking the workflow instead cannot tell "not landed" from "not landed yet".
   * @throws ConversationUpdateError when the workflow refuses it (its number is then free again), for the call waiting
   *   on it, which sent nothing; ConversationUnavailableError (`stored: false`, for the same reason) when it cannot
   *   be settled before the deadline; the doubt stays for the next call.
   */
  private async resolveDoubt(doubt: PendingAppend, deadline: number): Promise<void> {
    try {
      await this.attempt(doubt, deadline);
    } catch (err) {
      if (err instanceof ConversationUnavailableError) {
        throw this.unavailable(err.cause ?? err, ` (settling append ${doubt.seq}, whose outcome was unknown)`, false);
      }
      if (err instanceof ConversationUpdateError) return; // refused: nothing stored, its number is free (attempt)
      throw err;
    }
  }
}

/** The send-time settings: the conversation's format (null before its first message) and `unanswered`. */
interface SendSettings {
  format: MessageFormat | null;
  unanswered: ConversationSettings['unanswered'];
}

/** An append as sent: re-sent as is (update id, number, input) while its outcome is in doubt. */
interface PendingAppend {
  seq: number;
  /** The update's name and messages, to know the same call when it is made again. */
  call: string;
  update: typeof prepareUpdate;
  input: AppendInput;
  updateId: string;
}

/**
 * `ConversationClient`: the typed front of one conversation. It keeps a mirror of the live context, applies the
 * small patches `prepare` returns, and re-reads the context by query (not recorded in history) only when its mirror
 * is stale. The caller never needs to know whether the workflow exists: the first call starts it.
 */
import {
  WithStartWorkflowOperation,
  WorkflowNotFoundError,
  type Client,
  type WorkflowHandle,
} from '@temporalio/client';
import type { FoldRecord } from '../core/fold/fold-record';
import { prepareForSend } from '../core/messages/send';
import type { Usage } from '../core/messages/types';
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
  type AppendInput,
  type FoldProgress,
  type WaitForFoldInput,
  type WaitForFoldResult,
  type ConversationStateView,
  type PrepareResult,
  type RewindResult,
} from '../workflows/definitions';
import type { conversationWorkflow } from '../workflows/conversation';
import { applyPatch } from '../workflows/patch';
import { FoldWatcher, type FoldProgressEvent } from './fold-progress';
import {
  defaultLimits,
  defaultSettings,
  mergeLimits,
  mergeSettings,
  type ConversationSettings,
  type RunLimits,
  type SettingsPatch,
} from '../workflows/settings';

/** How to reach and create a conversation. */
export interface ConversationClientOptions {
  client: Client;
  conversationId: string;
  taskQueue: string;
  /** Settings for a conversation this client creates (ignored when it exists). */
  settings?: SettingsPatch;
  limits?: Partial<RunLimits>;
  /**
   * Called with the progress of a background fold (in flight, attempt, last error, the pending activity) after a
   * `prepare` leaves one in flight, on every change until its summary is ready. @default none
   */
  onFoldProgress?: (event: FoldProgressEvent) => void;
  /** How often progress is read while a fold is in flight, ms. @default 1000 */
  foldProgressIntervalMs?: number;
}

/** What `prepare` returns: the messages to send and how the context got there. */
export interface Prepared {
  messages: unknown[];
  version: number;
  tokens: number;
  budget: number;
  fold?: PrepareResult['fold'];
  decision: string;
  /** The fold in flight after this call (summarized in the background), when there is one. */
  folding?: FoldProgress;
}

export class ConversationClient {
  private mirror: unknown[] = [];
  private version = -1;
  private clientSeq: number | undefined;
  private sentVersion: number | undefined;
  private readonly watcher: FoldWatcher | undefined;

  /**
   * @throws SettingsError when `options.settings` or `options.limits` are invalid (checked here, before anything is
   *   sent, with the same rules the workflow applies).
   */
  constructor(private readonly options: ConversationClientOptions) {
    mergeSettings(defaultSettings, options.settings);
    mergeLimits(defaultLimits, options.limits);
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
   * @throws WorkflowUpdateFailedError wrapping an ApplicationFailure that names a bad message; nothing is stored.
   */
  async prepare(
    newMessages: unknown[],
    opts: { usage?: Pick<Usage, 'inputTokens'> & Partial<Usage> } = {}
  ): Promise<Prepared> {
    const result = await this.send(prepareUpdate, newMessages, opts.usage);
    this.sentVersion = result.version;
    if (result.folding) this.watcher?.watch();
    const settings = await this.settingsForSend();
    return {
      messages: prepareForSend(this.mirror, { unanswered: settings.unanswered }),
      version: result.version,
      tokens: result.tokens,
      budget: result.budget,
      decision: result.decision,
      ...(result.fold ? { fold: result.fold } : {}),
      ...(result.folding ? { folding: result.folding } : {}),
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
    return this.handle().executeUpdate(waitForFoldUpdate, { args: [opts] });
  }

  /** Appends the model's output — one message or an array of them — without deciding about a fold. */
  async record(messages: unknown): Promise<void> {
    await this.send(appendUpdate, Array.isArray(messages) ? messages : [messages], undefined);
  }

  /** The live context as the workflow holds it, with its version (re-syncs the mirror). */
  async context(): Promise<{ version: number; messages: unknown[] }> {
    const snapshot = await this.handle().query(contextQuery);
    this.mirror = snapshot.messages;
    this.version = snapshot.version;
    return { version: snapshot.version, messages: snapshot.messages };
  }

  async state(): Promise<ConversationStateView> {
    return this.handle().query(stateQuery);
  }

  async folds(): Promise<FoldRecord[]> {
    return this.handle().query(foldsQuery);
  }

  /** Removes the last round (for regenerate). @returns the removed messages. */
  async rewind(): Promise<RewindResult> {
    const result = await this.handle().executeUpdate(rewindUpdate);
    await this.context();
    return result;
  }

  /** Drops everything but the system messages (the archive keeps them). */
  async clear(): Promise<void> {
    await this.handle().executeUpdate(clearUpdate);
    await this.context();
  }

  async configure(patch: SettingsPatch): Promise<ConversationSettings> {
    this.cachedSettings = undefined;
    return this.handle().executeUpdate(configureUpdate, { args: [patch] });
  }

  /** Ends the conversation; its workflow completes. */
  async close(): Promise<void> {
    await this.handle().executeUpdate(closeUpdate);
  }

  private cachedSettings: ConversationSettings | undefined;
  private async settingsForSend(): Promise<ConversationSettings> {
    this.cachedSettings ??= (await this.state()).settings;
    return this.cachedSettings;
  }

  /** Continues the clientSeq after a restart of this process: the workflow remembers the highest it applied. */
  private async nextSeq(): Promise<number> {
    if (this.clientSeq === undefined) {
      try {
        this.clientSeq = (await this.handle().query(stateQuery)).lastClientSeq + 1;
      } catch (err) {
        if (!(err instanceof WorkflowNotFoundError)) throw err;
        this.clientSeq = 0;
        this.version = 0;
        this.mirror = [];
      }
    }
    return this.clientSeq++;
  }

  private async send(
    update: typeof prepareUpdate,
    messages: unknown[],
    usage: (Pick<Usage, 'inputTokens'> & Partial<Usage>) | undefined
  ): Promise<PrepareResult> {
    const clientSeq = await this.nextSeq();
    const input: AppendInput = {
      messages,
      clientSeq,
      ...(usage && this.sentVersion !== undefined ? { reported: { version: this.sentVersion, usage } } : {}),
    };
    const { conversationId, taskQueue, settings, limits } = this.options;
    const result = await this.options.client.workflow.executeUpdateWithStart(update, {
      args: [input],
      // The server de-duplicates a retried update with the same id within a run; clientSeq covers the rest.
      updateId: `${conversationId}:${clientSeq}`,
      startWorkflowOperation: new WithStartWorkflowOperation<typeof conversationWorkflow>('conversationWorkflow', {
        workflowId: this.workflowId,
        taskQueue,
        args: [{ conversationId, ...(settings ? { settings } : {}), ...(limits ? { limits } : {}) }],
        workflowIdConflictPolicy: 'USE_EXISTING',
        // A closed conversation stays closed: its id is not reused for a fresh, empty one.
        workflowIdReusePolicy: 'REJECT_DUPLICATE',
      }),
    });
    if (result.patch.baseVersion === this.version) {
      this.mirror = applyPatch([...this.mirror, ...messages], result.patch);
      this.version = result.version;
    } else {
      await this.context();
    }
    return result;
  }
}

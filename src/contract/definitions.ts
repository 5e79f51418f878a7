/**
 * The conversation workflow's public interface: its name, updates, signals and queries with their JSON shapes.
 * Clients in any language call these by name (see the README's "Calling it from Python or Go").
 */
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { Calibration } from '../core/calibration';
import type { BackoffMemory } from '../core/fold/backoff';
import type { FoldRecord } from '../core/fold/fold-record';
import type { MessageFormat, Usage } from '../core/messages/types';
import type { MessageFormatName } from '../core/messages/format-name';
import type { ConversationSettings, RunLimits, SettingsPatch } from './settings';
import type { FoldProgress } from './fold-progress';
import type { ContextPatch } from './patch';
import type { PrefixReuse } from './prefix-reuse';

export type { FoldProgress } from './fold-progress';
export type { ContextPatch } from './patch';

/** Workflow ids are derived from conversation ids with this prefix. */
export const workflowIdPrefix = 'conversation-';

/** @returns the workflow id that owns a conversation. */
export function conversationWorkflowId(conversationId: string): string {
  return `${workflowIdPrefix}${conversationId}`;
}

/** Start input of `conversationWorkflow`. */
export interface ConversationInput {
  conversationId: string;
  settings?: SettingsPatch;
  limits?: Partial<RunLimits>;
  /**
   * The wire format of the conversation's messages. When omitted, the first messages decide, and a conversation read
   * as chat (plain `{role, content}` messages fit both) becomes Responses when Responses items arrive. `'s0'`, the
   * typed format's former name, still means `'typed'`.
   */
  format?: MessageFormatName;
  /**
   * Set by continue-as-new only: the previous run's state, which the workflow checks and reads (its shape is the
   * workflow's own business, so callers never set it).
   */
  carried?: object;
  /** The protocol version the caller speaks (`PROTOCOL_VERSION`); absent means the current one. */
  protocol?: number;
}

/** Provider usage reported for a context this workflow produced (its `version`). */
export interface ReportedUsage {
  version: number;
  usage: Pick<Usage, 'inputTokens'> & Partial<Usage>;
}

/** Input of the `append` and `prepare` updates and the `append` signal. */
export interface AppendInput {
  /** New messages, in the conversation's format. */
  messages: unknown[];
  /**
   * The caller's sequence number for this append, increasing by one per append. A retried append with a number
   * already seen is not applied twice. Optional; messages that carry ids are also de-duplicated by id.
   */
  clientSeq?: number;
  /**
   * The writer (one per client instance) this `clientSeq` belongs to: with it, `clientSeq` numbers this writer's
   * appends from 0, a retry reuses its number, and an append that skips ahead is refused with `OutOfOrder`.
   * Without it, `clientSeq` is one sequence shared by every caller (the older scheme, kept working).
   */
  writer?: string;
  /** Usage the provider reported for the last context sent (calibrates the token estimate). */
  reported?: ReportedUsage;
  /**
   * The tool definitions the agent sends with its requests from now on; replaces `settings.tools` (send them when
   * they change). At most 128 tools and 128 KiB of JSON.
   */
  tools?: unknown[];
  /** The protocol version the caller speaks (`PROTOCOL_VERSION`); absent means the current one. */
  protocol?: number;
}

/** Result of `append` and `prepare`: small, whatever the conversation's length (history grows O(new messages)). */
export interface PrepareResult {
  version: number;
  patch: ContextPatch;
  /** Estimated tokens of the context now (calibrated), and the budget. */
  tokens: number;
  budget: number;
  /** How many of the sent messages were new (duplicates by clientSeq or id are skipped). */
  appended: number;
  /** Set when this call folded (or tried to). */
  fold?: { ok: boolean; number: number; reason: string; tokensBefore: number; tokensAfter: number };
  /** Why no fold happened, when none did. */
  decision: string;
  /** The fold summarized in the background after this call, when there is one (see `ConversationStateView`). */
  folding?: FoldProgress;
  /**
   * How much of this context repeats the context the previous `prepare` returned as a prefix (what a provider
   * prompt cache can reuse), in messages and counted tokens, beside the context's counted message tokens. Absent on
   * `append`.
   */
  prefix?: PrefixReuse;
}

/** Result of the `context` query. */
export interface ContextSnapshot {
  version: number;
  format: MessageFormat | null;
  messages: unknown[];
  tokens: number;
}

/** Result of the `state` query. */
export interface ConversationStateView {
  conversationId: string;
  version: number;
  format: MessageFormat | null;
  messages: number;
  archived: number;
  tokens: number;
  budget: number;
  settings: ConversationSettings;
  folds: number;
  /** The prefix whose fold failed last (folds of it wait until the context grows); `null` when none. */
  backoff: BackoffMemory | null;
  /** The fold in flight (background, or a blocking one being waited for); `null` when none. */
  folding: FoldProgress | null;
  /** The most recent fold record; `null` before the first fold. */
  lastFold: FoldRecord | null;
  lastError: { at: number; message: string } | null;
  closed: boolean;
  runUpdates: number;
  continuedAsNew: number;
  /** The highest clientSeq applied, so a restarted client continues the sequence. */
  lastClientSeq: number;
  /** What reported usage taught: the ratio reported / counted, the reports taken, the anchor; null before any. */
  calibration: Calibration | null;
}

/** Input of `rewind` (may be omitted). */
export interface RewindInput {
  /** Refuse (`VersionMismatch`) unless the context is at this version, so a stale caller cannot remove a newer round. */
  expectedVersion?: number;
}

/** Result of `rewind`: the removed messages. */
export interface RewindResult {
  version: number;
  removed: unknown[];
}

/** Longest wait of one `waitForFold` call, ms. */
export const MAX_FOLD_WAIT_MS = 600_000;

/** Input of `waitForFold`. */
export interface WaitForFoldInput {
  /** Give up after this long, ms (0 to {@link MAX_FOLD_WAIT_MS}). @default MAX_FOLD_WAIT_MS */
  timeoutMs?: number;
}

/** Result of `waitForFold`. */
export interface WaitForFoldResult {
  /** The fold still in flight, or ready and not applied yet (`phase: 'ready'`); `null` when there is none. */
  folding: FoldProgress | null;
  /** The most recent fold record; `null` before the first fold. */
  lastFold: FoldRecord | null;
}

/**
 * Result of `delete`: what was erased from the archive (current messages, fold records, older revisions). A
 * conversation deleted before, or never archived, erases nothing and returns zeros.
 */
export interface DeleteResult {
  messages: number;
  folds: number;
  superseded: number;
}

export const appendUpdate = defineUpdate<PrepareResult, [AppendInput]>('append');
export const prepareUpdate = defineUpdate<PrepareResult, [AppendInput]>('prepare');
export const rewindUpdate = defineUpdate<RewindResult, [RewindInput]>('rewind');
export const clearUpdate = defineUpdate<{ version: number }, []>('clear');
export const configureUpdate = defineUpdate<ConversationSettings, [SettingsPatch]>('configure');
export const closeUpdate = defineUpdate<{ version: number }, []>('close');
/**
 * Erases the conversation's archive (messages, fold records, revisions) and closes it; its workflow completes. The
 * caller then deletes the workflow's executions (`ConversationClient.delete` does both).
 */
export const deleteUpdate = defineUpdate<DeleteResult, []>('delete');
/** Resolves once no fold is being summarized (or after `timeoutMs`); for "compacting…" indicators. */
export const waitForFoldUpdate = defineUpdate<WaitForFoldResult, [WaitForFoldInput]>('waitForFold');
export const appendSignal = defineSignal<[AppendInput]>('append');
export const contextQuery = defineQuery<ContextSnapshot>('context');
/** The context as it should be sent now: tool results in call order, unanswered calls per the `unanswered` setting. */
export const sendableQuery = defineQuery<ContextSnapshot>('sendable');
export const stateQuery = defineQuery<ConversationStateView>('state');
export const foldsQuery = defineQuery<FoldRecord[]>('folds');
/** A writer's last applied sequence number (-1 when unknown): how a client in doubt learns whether its append landed. */
export const writerSeqQuery = defineQuery<number, [string]>('writerSeq');

/**
 * The conversation workflow's public interface: its name, updates, signals and queries with their JSON shapes.
 * Clients in any language call these by name (see the README's "Calling it from Python or Go").
 */
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { Calibration } from '../core/calibration';
import type { BackoffMemory } from '../core/fold/backoff';
import type { FoldRecord } from '../core/fold/fold-record';
import type { MessageFormat } from '../core/messages/types';
import type { ConversationSettings, SettingsPatch } from './settings';
import type { FoldProgress } from './fold-progress';
import type { ContextPatch } from './patch';
import type { PrefixReuse } from './prefix-reuse';

import type { AppendInput } from './schemas/append';
import type { RewindInput } from './schemas/rewind';
import type { WaitForFoldInput } from './schemas/wait-for-fold';

export type { FoldProgress } from './fold-progress';
export type { AppendInput, ReportedUsage } from './schemas/append';
export type { ConversationInput } from './schemas/start';
export type { RewindInput } from './schemas/rewind';
export type { WaitForFoldInput } from './schemas/wait-for-fold';
export { MAX_FOLD_WAIT_MS } from './schemas/wait-for-fold';
export type { ContextPatch } from './patch';

/** Workflow ids are derived from conversation ids with this prefix. */
export const workflowIdPrefix = 'conversation-';

/** @returns the workflow id that owns a conversation. */
export function conversationWorkflowId(conversationId: string): string {
  return `${workflowIdPrefix}${conversationId}`;
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
  /**
   * The conversation's message format now (`null` before its first message) and its `unanswered` setting: what a
   * client needs to normalise the context it sends, without reading the state. Absent from workers before 1.0.0-rc.2
   * (a client then reads them with the `state` query).
   */
  format?: MessageFormat | null;
  unanswered?: ConversationSettings['unanswered'];
  /**
   * Set in a format other than chat and Responses when the context needs no send-time change (every call answered,
   * results in call order): a client without that format's send rules sends its mirror as it is, instead of reading
   * the `sendable` query. Absent otherwise, and from workers before 1.0.0-rc.2.
   */
  sendAsIs?: true;
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

/** Result of `rewind`: the removed messages. */
export interface RewindResult {
  version: number;
  removed: unknown[];
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

/**
 * What one conversation's workflow carries from run to run (the continue-as-new input's `carried`): plain JSON, read
 * and written only through `ConversationState`.
 */
import type { Calibration } from '../../core/calibration';
import type { BackoffMemory } from '../../core/fold/backoff';
import type { HotPaths } from '../../core/fold/hot-paths';
import type { FoldRecord } from '../../core/fold/fold-record';
import type { MessageFormat } from '../../core/messages/types';
import type { CarriedLedger } from '../../core/fold/state-ledger/carried-check';
import type { ConversationSettings, RunLimits } from '../../contract/settings';
import type { LiveEntry } from './live-entry';
import type { PendingFold } from './pending-fold';
import type { SentContext } from './sent-contexts';
import type { WriterTable } from './writers';

/** Everything carried across continue-as-new: plain JSON. */
export interface CarriedState {
  conversationId: string;
  settings: ConversationSettings;
  /** The run limits resolved when the conversation started (defaults ← start `limits`), kept by every later run. */
  limits: RunLimits;
  format: MessageFormat | null;
  /** Set when the start argument gave the format: it is kept as given (no upgrade from chat to Responses). */
  formatFixed?: boolean;
  live: LiveEntry[];
  nextSeq: number;
  version: number;
  lastClientSeq: number;
  /** `appendHash` of the append numbered `lastClientSeq` (absent until an append carries a shared number). */
  lastClientHash?: string;
  /** Per-writer last applied sequence numbers (appends with a `writer`). */
  writers: WriterTable;
  /** Ids of recently appended messages (bounded), for idempotent retries of appends without a clientSeq. */
  recentIds: string[];
  /** The most recent fold records (bounded); the archive keeps them all. */
  folds: FoldRecord[];
  foldCount: number;
  /** The prefix whose fold failed last, to back off from; `null` when the last fold attempt did not fail. */
  backoff: BackoffMemory | null;
  /** Provider-reported usage against our counts (`core/calibration`); `null` until usage is reported. */
  calibration: Calibration | null;
  /** Extra tokens every request costs on top of its messages (reply priming, tool schemas). */
  fixedTokens: number;
  /** Tokens of `settings.tools`, part of `fixedTokens`. Absent until tools given at start are first counted. */
  toolTokens?: number;
  lastError: { at: number; message: string } | null;
  closed: boolean;
  continuedAsNew: number;
  /**
   * Contexts produced since the last change that was not an append, with our count of each: usage reported for any
   * of them calibrates the estimate.
   */
  sent: SentContext[];
  /** Files read often lately (hot paths): eviction keeps their latest read. */
  hotPaths: HotPaths;
  /** The fold summarized in the background, until it is applied; `null` when none is. */
  pendingFold: PendingFold | null;
  /** File reads of the current user turn so far (bounded), scored when the next turn starts. */
  turnReads: string[];
  /**
   * The state ledger of the last applied fold, bound to its summary (bounded in bytes); the next fold merges it whole
   * instead of reading the ledger back from the summary's text. Absent or `null`: read it from the summary.
   */
  ledger?: CarriedLedger | null;
}

/** The carried state as readers outside this class see it: no field, live entry or list can be written through it. */
export type ReadonlyCarriedState = Readonly<
  Omit<CarriedState, 'live' | 'writers' | 'recentIds' | 'folds' | 'sent' | 'pendingFold' | 'turnReads'>
> & {
  readonly live: readonly Readonly<LiveEntry>[];
  readonly writers: Readonly<WriterTable>;
  readonly recentIds: readonly string[];
  readonly folds: readonly FoldRecord[];
  readonly sent: readonly SentContext[];
  readonly pendingFold: Readonly<PendingFold> | null;
  readonly turnReads: readonly string[];
};

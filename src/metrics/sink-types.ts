/**
 * The sink through which workflow code reports what the worker counts (folds, back-offs, prepare timing). Sink calls
 * leave no trace in history and are not repeated on replay, so a conversation re-run on another worker is not counted
 * twice. Types only: imported by workflow code.
 */
import type { Sinks } from '@temporalio/workflow';

/** One fold attempt as the metrics see it. */
export interface FoldObservation {
  /** `ok`, `truncated`, or `failed`. */
  outcome: 'ok' | 'truncated' | 'failed';
  /** For failed folds: the fold record's error kind (too_large, incomplete, no_text, unsafe, provider, aborted). */
  kind: string | null;
  tokensBefore: number;
  tokensAfter: number | null;
}

/** The prompt-cache view of one returned context (see `PrepareResult.prefix`). */
export interface PrefixObservation {
  contextTokens: number;
  prefixTokens: number;
}

export interface ConversationSinks extends Sinks {
  conversationMetrics: {
    fold(observation: FoldObservation): void;
    /** A fold was due but skipped: the same prefix failed before. */
    backoff(): void;
    /** A `prepare` update started handling (key: its update id). */
    prepareStarted(updateId: string): void;
    /** It finished; `ok` false when it was rejected. */
    prepareFinished(updateId: string, ok: boolean): void;
    /** A `prepare` returned a context: its counted tokens, and those repeating the previous context as a prefix. */
    prefix(observation: PrefixObservation): void;
  };
}

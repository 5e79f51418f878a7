/**
 * The summarize activity's time bounds, retry policy and heartbeats, and the escalating back-off after failed folds:
 * chosen together, validated together, and turned into the activity options both the conversation workflow and the
 * embeddable compactor schedule `summarize` with (`workflows/shared/activity-options.ts`). Plain data, part of the conversation's `limits`.
 */
import type { BackoffDelays } from '../core/fold/backoff';

/** Time bounds and retries of one fold's summarizer call, and the waits between folds of a prefix that keeps failing. */
export interface FoldLimits {
  /** One attempt of the summarize activity, ms (the summarizer may ask the model twice). @default 300000 */
  summarizeStartToCloseMs: number;
  /** Every attempt of one fold's summarize activity together, retries included, ms. @default 900000 */
  summarizeScheduleToCloseMs: number;
  /** A worker that stops heartbeating this long is taken for dead and the attempt retried, ms. @default 10000 */
  summarizeHeartbeatTimeoutMs: number;
  /** How often the activity heartbeats while the model writes, ms; at most a third of the timeout. @default 2000 */
  summarizeHeartbeatIntervalMs: number;
  /** Attempts of the summarize activity for retryable errors (non-retryable ones stop at once). @default 5 */
  summarizeMaxAttempts: number;
  /** First retry delay, ms; it doubles per attempt (a provider's `retry-after` wins). @default 1000 */
  summarizeRetryInitialMs: number;
  /** Longest retry delay, ms. @default 60000 */
  summarizeRetryMaxMs: number;
  /**
   * After the second failed fold in a row of the same prefix, wait this long before trying it again, ms; the wait
   * doubles with each further failure. (After the first failure the prefix is tried again once it has grown.)
   * @default 60000
   */
  foldBackoffInitialMs: number;
  /** Longest such wait, ms. @default 1800000 */
  foldBackoffMaxMs: number;
}

export const defaultFoldLimits: FoldLimits = {
  summarizeStartToCloseMs: 300_000,
  summarizeScheduleToCloseMs: 900_000,
  summarizeHeartbeatTimeoutMs: 10_000,
  summarizeHeartbeatIntervalMs: 2_000,
  summarizeMaxAttempts: 5,
  summarizeRetryInitialMs: 1_000,
  summarizeRetryMaxMs: 60_000,
  foldBackoffInitialMs: 60_000,
  foldBackoffMaxMs: 1_800_000,
};

/**
 * Checks how the fold limits relate to each other (each one is already a positive integer).
 * @returns the first problem, naming the limits involved, or `null` when they fit together.
 */
export function foldLimitsProblem(l: FoldLimits): string | null {
  if (l.summarizeHeartbeatTimeoutMs < 1000) return 'limits.summarizeHeartbeatTimeoutMs must be at least 1000';
  if (l.summarizeHeartbeatIntervalMs < 100) return 'limits.summarizeHeartbeatIntervalMs must be at least 100';
  if (l.summarizeHeartbeatIntervalMs * 3 > l.summarizeHeartbeatTimeoutMs) {
    return (
      `limits.summarizeHeartbeatIntervalMs (${l.summarizeHeartbeatIntervalMs}) must be at most a third of ` +
      `limits.summarizeHeartbeatTimeoutMs (${l.summarizeHeartbeatTimeoutMs}): one late heartbeat must not fail a fold`
    );
  }
  if (l.summarizeHeartbeatTimeoutMs > l.summarizeStartToCloseMs) {
    return 'limits.summarizeHeartbeatTimeoutMs must not exceed limits.summarizeStartToCloseMs';
  }
  if (l.summarizeStartToCloseMs > l.summarizeScheduleToCloseMs) {
    return 'limits.summarizeStartToCloseMs must not exceed limits.summarizeScheduleToCloseMs';
  }
  if (l.summarizeRetryInitialMs > l.summarizeRetryMaxMs) {
    return 'limits.summarizeRetryInitialMs must not exceed limits.summarizeRetryMaxMs';
  }
  if (l.summarizeMaxAttempts > 100) return 'limits.summarizeMaxAttempts must be at most 100';
  if (l.foldBackoffInitialMs > l.foldBackoffMaxMs) {
    return 'limits.foldBackoffInitialMs must not exceed limits.foldBackoffMaxMs';
  }
  return null;
}

/** @returns the escalating waits of the back-off after failed folds. */
export function backoffDelays(l: FoldLimits): BackoffDelays {
  return { initialMs: l.foldBackoffInitialMs, maxMs: l.foldBackoffMaxMs };
}

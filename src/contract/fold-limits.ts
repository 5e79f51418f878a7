/**
 * The summarize activity's time bounds, retry policy and heartbeats, and the escalating back-off after failed folds:
 * chosen together, validated together, and turned into the activity options both the conversation workflow and the
 * embeddable compactor schedule `summarize` with (`workflows/shared/activity-options.ts`). Plain data, part of the conversation's `limits`.
 */
import type { BackoffDelays } from '../core/fold/backoff';
import type { foldLimitsShape } from './schemas/limits';

/** Time bounds and retries of one fold's summarizer call, and the waits between folds of a prefix that keeps failing. */
export type FoldLimits = { [K in keyof typeof foldLimitsShape]: number };

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

/**
 * The options every activity of the workflow layer is scheduled with, in one place: the local activities of the
 * conversation workflow and the Compactor (ingest, counting, fold records, profile checks, the offline summary) and
 * the summarize activities (from the run's `limits`). Both retry policies name the same non-retryable failure types.
 */
import type { ActivityOptions, LocalActivityOptions } from '@temporalio/workflow';
import type { FoldLimits } from '../../contract/fold-limits';

/**
 * Failure types the activities throw for input that fails the same way on every attempt (`InvalidInput` of the
 * archive activities, `InvalidCountTokensInput` of `countTokens`): never retried, even if thrown without the flag.
 */
export const NON_RETRYABLE_ACTIVITY_FAILURES: readonly string[] = ['InvalidInput', 'InvalidCountTokensInput'];

/** Short and idempotent: 30 s each, at most 5 attempts, invalid input not retried. */
const SHORT_AND_IDEMPOTENT = {
  startToCloseTimeout: '30 seconds',
  retry: { maximumAttempts: 5, nonRetryableErrorTypes: [...NON_RETRYABLE_ACTIVITY_FAILURES] },
} as const satisfies LocalActivityOptions & ActivityOptions;

/** The local activities' options: short and idempotent (30 s each, at most 5 attempts, invalid input not retried). */
export const localActivityOptions: LocalActivityOptions = SHORT_AND_IDEMPOTENT;

/**
 * The archive's ordinary activities (fold records): the same timeout and attempts as the local ones, scheduled from
 * history so that a write comes only from a workflow task the server kept.
 */
export const archiveActivityOptions: ActivityOptions = SHORT_AND_IDEMPOTENT;

/**
 * The summarize activity's options for these limits: start-to-close per attempt, schedule-to-close over all
 * attempts, the heartbeat timeout, and retries with exponential back-off (coefficient 2) up to `summarizeMaxAttempts`.
 * Errors the activity marks non-retryable (refusals, bad keys, malformed input) are never retried.
 * @returns options for `proxyActivities`.
 */
export function summarizeActivityOptions(l: FoldLimits): ActivityOptions {
  return {
    startToCloseTimeout: l.summarizeStartToCloseMs,
    scheduleToCloseTimeout: l.summarizeScheduleToCloseMs,
    heartbeatTimeout: l.summarizeHeartbeatTimeoutMs,
    retry: {
      initialInterval: l.summarizeRetryInitialMs,
      maximumInterval: l.summarizeRetryMaxMs,
      backoffCoefficient: 2,
      maximumAttempts: l.summarizeMaxAttempts,
      nonRetryableErrorTypes: [...NON_RETRYABLE_ACTIVITY_FAILURES],
    },
  };
}

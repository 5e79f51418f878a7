/**
 * Run limits (the start input's `limits`, resolved into the carried state): their type, each limit's floor and
 * ceiling with its message, and their JSON Schema, from one schema. How the fold limits relate to each other is
 * checked after it (`foldLimitsProblem`). A limit outside its range either wedges the conversation (a 1-byte
 * history limit continues-as-new forever) or defeats the server's own caps, so it is refused at start.
 */
import * as z from 'zod/v4-mini';
import { intFrom } from './leaves';

const positive = () => intFrom(1, Number.MAX_SAFE_INTEGER);

/** Time bounds and retries of one fold's summarizer call, and the waits between folds of a prefix that keeps failing. */
export const foldLimitsShape = {
  /** One attempt of the summarize activity, ms (the summarizer may ask the model twice). @default 300000 */
  summarizeStartToCloseMs: positive(),
  /** Every attempt of one fold's summarize activity together, retries included, ms. @default 900000 */
  summarizeScheduleToCloseMs: positive(),
  /** A worker that stops heartbeating this long is taken for dead and the attempt retried, ms. @default 10000 */
  summarizeHeartbeatTimeoutMs: positive(),
  /** How often the activity heartbeats while the model writes, ms; at most a third of the timeout. @default 2000 */
  summarizeHeartbeatIntervalMs: positive(),
  /** Attempts of the summarize activity for retryable errors (non-retryable ones stop at once). @default 5 */
  summarizeMaxAttempts: positive(),
  /** First retry delay, ms; it doubles per attempt (a provider's `retry-after` wins). @default 1000 */
  summarizeRetryInitialMs: positive(),
  /** Longest retry delay, ms. @default 60000 */
  summarizeRetryMaxMs: positive(),
  /**
   * After the second failed fold in a row of the same prefix, wait this long before trying it again, ms; the wait
   * doubles with each further failure. (After the first failure the prefix is tried again once it has grown.)
   * @default 60000
   */
  foldBackoffInitialMs: positive(),
  /** Longest such wait, ms. @default 1800000 */
  foldBackoffMaxMs: positive(),
};

/** Run limits: when to continue-as-new, and the summarize activity's bounds (see `FoldLimits`). Tests lower them. */
export const runLimitsFields = z.strictObject(
  {
    /**
     * Continue-as-new after this many updates in one run (the server caps a run at 2 000): a worker taking the
     * conversation over after a crash replays the run first. Below 10 a run would hand over after almost every call.
     * @default 60
     */
    maxUpdatesPerRun: intFrom(10, 1900),
    /**
     * Continue-as-new past this many history bytes (the server warns at 10 MiB, fails at 50 MiB). Below 1 MiB a run
     * with one large message would continue-as-new in a loop. @default 8 MiB
     */
    maxHistoryBytes: intFrom(1_048_576, 40 * 1_048_576),
    /** Continue-as-new past this many history events (warn at 10 240, fail at 51 200). @default 8000 */
    maxHistoryEvents: intFrom(500, 40_000),
    ...foldLimitsShape,
  },
  { error: () => 'must be an object' }
);

/** Limits a start input may set: any of them. */
export const limitsPatch = z.partial(runLimitsFields);

export type RunLimits = z.infer<typeof runLimitsFields>;

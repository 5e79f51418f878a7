/**
 * The `summarize` activity: one fold of a head into a summary, in the configured mode. It heartbeats while the model
 * call is in flight (so a crashed worker is noticed within the heartbeat timeout), aborts the request when the
 * activity is cancelled, and turns classified errors into `ApplicationFailure`s: retryable (429, 5xx, timeouts,
 * connection errors; honouring `retry-after` through `nextRetryDelay`) or not (400/401/403/404/422, configuration).
 * Its input carries no secret and no endpoint: it names a summarizer profile of the worker's own configuration, which
 * says the mode, model, base URL and where the API key is read (inside the summarizer, at call time).
 */
import { Context } from '@temporalio/activity';
import { ApplicationFailure, CancelledFailure } from '@temporalio/common';
import { TranscriptValidationError } from '../core/messages/validate';
import { createSummarizer } from '../summarizers';
import { SummarizerAbortedError, SummarizerCallError } from '../summarizers/classify-error';
import {
  builtinProfiles,
  resolveProfile,
  type SummarizerChoice,
  type SummarizerProfiles,
} from '../summarizers/profiles';
import type { SummarizeProgress, SummarizeRequest, SummarizeResult, TextCounter } from '../summarizers/types';
import { countersByModel } from '../tokens';

/** Input of the `summarize` activity: the request plus the caller's choice of profile and harmless tuning. */
export interface SummarizeInput extends SummarizeRequest {
  /** Profile name (absent = the worker's default), output limit, extra instructions. Other fields are ignored. */
  summarizer?: SummarizerChoice;
  /** Heartbeat interval while the model writes, ms. @default the worker's `heartbeatMs` */
  heartbeatMs?: number;
}

/** Output of the `summarize` activity. */
export type SummarizeOutput = SummarizeResult;

/** Heartbeat details while folding: what the workflow (or `temporal activity describe`) can show. */
export interface SummarizeHeartbeat {
  phase: 'summarizing';
  mode: SummarizeProgress['mode'];
  attempt: number;
  /** Epoch ms the current attempt started ("folding since T"). */
  since: number;
}

/** Dependencies of {@link createSummarizeActivity}. */
export interface SummarizeActivityDeps {
  /** The summarizer profiles this worker serves. @default one extractive (offline) profile named 'default' */
  profiles?: SummarizerProfiles;
  /** Token counter per model. @default `createTokenCounter({ model })` from src/tokens */
  counterFor?: (model: string) => TextCounter;
  /** Environment holding `apiKeyEnv`. @default process.env */
  env?: NodeJS.ProcessEnv;
  /** Heartbeat interval while waiting on the model, ms. @default 5000 */
  heartbeatMs?: number;
  /** Run as a plain function, not inside a Temporal activity (no heartbeats, no cancellation). @default false */
  outsideActivity?: boolean;
  /** Progress hook (per attempt, and once with the outcome), e.g. for metrics. */
  onProgress?: (
    event: { type: 'start'; progress: SummarizeProgress } | { type: 'complete'; result: SummarizeResult }
  ) => void;
}

/** Default heartbeat interval, ms: a fifth of the workflow's default 10 s heartbeat timeout. */
export const DEFAULT_HEARTBEAT_MS = 2_000;

/**
 * The interval to heartbeat at: the one asked for, but never more than a third of the activity's heartbeat timeout
 * (so one late beat cannot fail the attempt, whatever the two settings say), and at least 50 ms.
 * @returns milliseconds.
 */
export function heartbeatInterval(askedMs: number, heartbeatTimeoutMs: number | undefined): number {
  const ceiling = heartbeatTimeoutMs && heartbeatTimeoutMs > 0 ? Math.floor(heartbeatTimeoutMs / 3) : askedMs;
  return Math.max(50, Math.min(askedMs, ceiling));
}

/**
 * Converts a classified summarizer error into the failure Temporal acts on.
 *
 * @returns a retryable or non-retryable `ApplicationFailure` of the error's type, with `nextRetryDelay` from
 *   `retry-after` when the provider sent one
 */
export function toApplicationFailure(err: SummarizerCallError): ApplicationFailure {
  return ApplicationFailure.create({
    message: err.message,
    type: err.type,
    nonRetryable: !err.retryable,
    ...(err.retryAfterMs !== undefined ? { nextRetryDelay: err.retryAfterMs } : {}),
    details: err.status !== undefined ? [{ status: err.status }] : [],
  });
}

/**
 * Creates the `summarize` activity.
 *
 * @returns `summarize(input)`: resolves to the fold's result (success, or an "unfolded" failure: the context is sent as it was)
 * @throws (from `summarize`) ApplicationFailure for transport and configuration errors; CancelledFailure when the
 *   activity was cancelled
 */
export function createSummarizeActivity(
  deps: SummarizeActivityDeps = {}
): (input: SummarizeInput) => Promise<SummarizeOutput> {
  const counterFor: (model: string) => TextCounter = deps.counterFor ?? countersByModel();
  const heartbeatMs = deps.heartbeatMs ?? DEFAULT_HEARTBEAT_MS;
  const profiles = deps.profiles ?? builtinProfiles();
  return async function summarize(input: SummarizeInput): Promise<SummarizeOutput> {
    // Outside an activity (the offline `fold` command) there is nothing to heartbeat to and nothing cancels.
    const ctx: {
      heartbeat: Context['heartbeat'];
      cancellationSignal: AbortSignal;
      info: Pick<Context['info'], 'isLocal' | 'heartbeatTimeoutMs'>;
    } = deps.outsideActivity
      ? {
          heartbeat: () => {},
          cancellationSignal: new AbortController().signal,
          info: { isLocal: true, heartbeatTimeoutMs: undefined },
        }
      : Context.current();
    const { summarizer: choice, heartbeatMs: asked, ...request } = input;
    let config;
    try {
      config = resolveProfile(profiles, choice);
    } catch (e) {
      throw e instanceof SummarizerCallError ? toApplicationFailure(e) : e;
    }
    const summarizer = createSummarizer(config, { counterFor, ...(deps.env ? { env: deps.env } : {}) });
    let details: SummarizeHeartbeat | undefined;
    // A local activity (the offline fallback fold) cannot heartbeat: the server does not know it.
    const beat = (): void => {
      if (!ctx.info.isLocal) ctx.heartbeat(details);
    };
    const timer = setInterval(beat, heartbeatInterval(asked ?? heartbeatMs, ctx.info.heartbeatTimeoutMs));
    try {
      return await summarizer(request, {
        signal: ctx.cancellationSignal,
        heartbeat: beat,
        onStart: (progress) => {
          details = { phase: 'summarizing', mode: progress.mode, attempt: progress.attempt, since: progress.startedAt };
          deps.onProgress?.({ type: 'start', progress });
        },
        onComplete: (result) => deps.onProgress?.({ type: 'complete', result }),
      });
    } catch (e) {
      if (e instanceof SummarizerAbortedError || ctx.cancellationSignal.aborted) {
        const reason: unknown = ctx.cancellationSignal.reason;
        throw reason instanceof CancelledFailure ? reason : new CancelledFailure('summarize cancelled');
      }
      if (e instanceof SummarizerCallError) throw toApplicationFailure(e);
      // A malformed head will be just as malformed on the next attempt.
      if (e instanceof TranscriptValidationError) throw ApplicationFailure.nonRetryable(e.message, e.name);
      throw e;
    } finally {
      clearInterval(timer);
    }
  };
}

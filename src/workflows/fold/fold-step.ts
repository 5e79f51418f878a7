/**
 * The one fold step of the conversation workflow and the embeddable compactor: summarize → classify what went wrong
 * → apply → count what was inserted → record → back-off. Split into phases so that a fold can be summarized in the
 * background and applied at a later turn:
 *
 * 1. {@link beginFold}: what the fold stands on (plan, prefix hash, tokens, start time), plain JSON;
 * 2. {@link summarizeOutcome}: the summarizer's answer, or its failure classified (cancellation is rethrown), plain
 *    JSON, so it can wait in workflow state and cross a continue-as-new;
 * 3. {@link completeFold}: applies the summary to the transcript as it is now, counts the inserted elements *before*
 *    anything is committed, and returns the fold record, the next back-off memory and what to commit.
 *
 * Workflow code: deterministic; the only I/O is the activities the caller passes in.
 */
import { ActivityFailure, ApplicationFailure, isCancellation, TimeoutFailure } from '@temporalio/workflow';
import { applyFold, type FoldSummary } from '../../core/fold/apply';
import { foldCacheEffect, sharedPrefixLength } from '../../core/fold/cache-effect';
import { recordFailure, type BackoffMemory } from '../../core/fold/backoff';
import { FoldApplyError } from '../../core/fold/errors';
import type { FoldError, FoldRecord } from '../../core/fold/fold-record';
import type { FoldLayout } from '../../core/fold/layout';
import { prefixHash } from '../../core/hash';
import type { Transcript, Usage } from '../../core/messages/types';
import type { FoldPlan } from '../../core/plan';
import type { CarriedLedger } from '../../core/fold/state-ledger/carried-check';

/** What every summarizer answer carries, successful or not. */
interface OutcomeUsage {
  usage: Usage | null;
  responseId: string | null;
  outputTypes: string[];
  attempts: number;
  /** The summarizer request's digest (the archive keeps the summary under it); absent without an answer. */
  requestDigest?: string;
}

/** The summarizer's answer to one fold, or why there is none. Plain JSON. */
export type SummaryOutcome =
  | (OutcomeUsage & {
      ok: true;
      summary: FoldSummary;
      identifiers: { kept: number; total: number } | null;
      /** The fold's merged state ledger, bound to `summary`, to carry to the next fold (absent: read it from the text). */
      carry?: CarriedLedger;
    })
  | (OutcomeUsage & {
      ok: false;
      error: FoldError;
      /** True when trying again cannot help (a refusal, a bad key, a malformed head, an unsafe layout). */
      nonRetryable: boolean;
    });

/** What a fold stands on, from planning to applying. Plain JSON. */
export interface FoldTicket {
  plan: FoldPlan;
  /** `prefixHash` of the first `plan.split` raws of the planned transcript. */
  prefixHash: string;
  /** Estimated context tokens when the fold was planned. */
  tokensBefore: number;
  archiveRange: FoldRecord['archiveRange'];
  startedAt: number;
}

/**
 * Starts a fold.
 * @returns the ticket the other phases take.
 */
export function beginFold(input: {
  plan: FoldPlan;
  raws: readonly unknown[];
  tokensBefore: number;
  archiveRange?: FoldRecord['archiveRange'];
  startedAt: number;
}): FoldTicket {
  return {
    plan: input.plan,
    prefixHash: prefixHash(input.raws.slice(0, input.plan.split)),
    tokensBefore: input.tokensBefore,
    archiveRange: input.archiveRange ?? null,
    startedAt: input.startedAt,
  };
}

const NO_USAGE: OutcomeUsage = { usage: null, responseId: null, outputTypes: [], attempts: 0 };

/**
 * Turns what a summarizer call threw into a fold error.
 * @returns `unsafe` for a layout that would break a safety rule (and for a bug in workflow code, reported rather
 *   than applied); `provider` for an activity that failed, timed out or gave up after its retries.
 * @throws the error itself when it is a cancellation (the caller's scope was cancelled: nothing to record).
 */
export function classifyFoldError(err: unknown): { error: FoldError; nonRetryable: boolean } {
  if (isCancellation(err)) throw err;
  if (err instanceof FoldApplyError) return { error: { kind: 'unsafe', message: err.message }, nonRetryable: true };
  if (err instanceof ActivityFailure) {
    const cause = err.cause;
    if (cause instanceof TimeoutFailure) {
      return {
        error: { kind: 'provider', message: `summarize timed out (${timeoutName(cause)}): ${cause.message}` },
        nonRetryable: false,
      };
    }
    const nonRetryable = cause instanceof ApplicationFailure && cause.nonRetryable === true;
    return { error: { kind: 'provider', message: cause?.message ?? err.message }, nonRetryable };
  }
  if (err instanceof ApplicationFailure) {
    return { error: { kind: 'provider', message: err.message }, nonRetryable: err.nonRetryable === true };
  }
  const message = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  return { error: { kind: 'unsafe', message: `internal error while folding: ${message}` }, nonRetryable: true };
}

function timeoutName(failure: TimeoutFailure): string {
  return String(failure.timeoutType ?? 'timeout')
    .toLowerCase()
    .replace(/_/g, '-');
}

/**
 * Runs a summarizer call and never throws for its failures.
 * @returns the call's outcome, or a failed outcome classified by {@link classifyFoldError}.
 * @throws only cancellation.
 */
export async function summarizeOutcome(call: () => Promise<SummaryOutcome>): Promise<SummaryOutcome> {
  try {
    return await call();
  } catch (err) {
    return { ok: false, ...classifyFoldError(err), ...NO_USAGE };
  }
}

/** What to commit after a successful fold. */
export interface AppliedFold {
  /** The folded context: the caller's kept raws by identity, plus the inserted summary elements. */
  folded: unknown[];
  /** The summary elements inserted, and their token counts. */
  inserted: unknown[];
  counts: number[];
}

/** What {@link completeFold} decided. */
export interface FoldCompletion {
  record: FoldRecord;
  /** The back-off memory after this fold: cleared after a success, escalated after a failure of the same prefix. */
  backoff: BackoffMemory | null;
  /** Set after a success: commit it. */
  applied: AppliedFold | null;
  /** Set after a failure, for the caller's `lastError`. */
  lastError: string | null;
}

/** Input of {@link completeFold}. */
export interface CompleteFoldInput {
  ticket: FoldTicket;
  outcome: SummaryOutcome;
  /** The fold record's number. */
  number: number;
  /** The transcript to fold now: the planned one, or the planned one with messages appended since. */
  transcript: Transcript;
  /** Which items to keep. @default the ticket's plan */
  layout?: FoldLayout;
  backoff: BackoffMemory | null;
  /** Counts the inserted summary elements (before anything is committed). */
  count: (inserted: unknown[]) => Promise<number[]>;
  /** Estimated tokens of the folded context, given the inserted elements' counts. */
  measure: (applied: AppliedFold) => number;
  now: () => number;
  /**
   * Builds the new context from the summary instead of `applyFold` over `transcript` and `layout` (a model summary
   * replacing a fallback's). Elements not in `transcript` are the inserted ones.
   */
  build?: (summary: FoldSummary) => unknown[];
  /** A last check of the folded context's size: a reason not to apply it, or `null` to apply. */
  accept?: (tokensAfter: number) => string | null;
  /** The context's budget: a folded context still over it is said so in the record (`overBudget`). @default none */
  budget?: number;
  /** Record facts of background folds. */
  fallback?: boolean;
  replaces?: number | null;
}

/**
 * Applies a summarizer outcome: builds the folded context (the safety rules are checked again on the transcript as it
 * is now), counts the inserted elements, and writes the record. Nothing is committed here.
 * @returns the record, the next back-off memory and, after a success, what to commit.
 * @throws cancellation only; a failed count is a failed fold.
 */
export async function completeFold(input: CompleteFoldInput): Promise<FoldCompletion> {
  const { ticket, number, transcript } = input;
  const plan = ticket.plan;
  const layout = input.layout ?? plan;
  let outcome = input.outcome;
  let applied: AppliedFold | null = null;
  let tokensAfter = 0;
  if (outcome.ok) {
    try {
      const summary = outcome.summary;
      const folded = input.build ? input.build(summary) : applyFold({ transcript, plan: layout, summary });
      const kept = new Set(transcript.items.map((item) => item.raw));
      const inserted = folded.filter((raw) => !kept.has(raw));
      applied = { folded, inserted, counts: await input.count(inserted) };
      tokensAfter = input.measure(applied);
    } catch (err) {
      const { error, nonRetryable } = classifyFoldError(err);
      outcome = { ...outcome, ok: false, error, nonRetryable };
      applied = null;
    }
    const refused = applied && input.accept?.(tokensAfter);
    if (outcome.ok && refused) {
      outcome = {
        ...outcome,
        ok: false,
        error: { kind: 'discarded', message: `not applied: ${refused}` },
        nonRetryable: true,
      };
      applied = null;
    }
  }
  const base = {
    number,
    split: plan.split,
    tokensBefore: ticket.tokensBefore,
    pinned: [...plan.pinned],
    prefixHash: ticket.prefixHash,
    archiveRange: ticket.archiveRange,
    startedAt: ticket.startedAt,
    usage: outcome.usage,
    responseId: outcome.responseId,
    outputTypes: outcome.outputTypes,
    attempts: outcome.attempts,
    finishedAt: input.now(),
    ...(input.fallback !== undefined ? { fallback: input.fallback } : {}),
    ...(input.replaces !== undefined ? { replaces: input.replaces } : {}),
    ...(outcome.requestDigest !== undefined ? { requestDigest: outcome.requestDigest } : {}),
  };
  if (outcome.ok && applied) {
    const firstKept = layout.tail[0];
    const shared = sharedPrefixLength(
      transcript.items.map((item) => item.raw),
      applied.folded
    );
    const prefixTokens = input.measure({ folded: applied.folded.slice(0, shared), inserted: [], counts: [] });
    const record: FoldRecord = {
      ...base,
      ok: true,
      output: outcome.summary.kind,
      droppedCount: plan.dropped.length,
      tokensAfter,
      cache: foldCacheEffect(prefixTokens, ticket.tokensBefore, tokensAfter),
      ...(input.budget !== undefined && tokensAfter > input.budget
        ? { overBudget: { budget: input.budget, by: tokensAfter - input.budget } }
        : {}),
      error: null,
      identifiers: outcome.identifiers,
      firstKept:
        firstKept === undefined ? null : { index: firstKept, hash: prefixHash([transcript.items[firstKept]!.raw]) },
    };
    return { record, backoff: null, applied, lastError: null };
  }
  const error = outcome.ok ? { kind: 'unsafe' as const, message: 'no folded context' } : outcome.error;
  const record: FoldRecord = {
    ...base,
    ok: false,
    output: null,
    droppedCount: 0,
    tokensAfter: null,
    error,
    identifiers: null,
    firstKept: null,
  };
  const raws = transcript.items.map((item) => item.raw);
  // The same prefix failing again (grown or not) escalates the back-off; another prefix starts it over.
  const backoff = recordFailure({
    raws,
    split: plan.split,
    tokens: ticket.tokensBefore,
    previous: input.backoff,
    at: record.finishedAt,
  });
  return { record, backoff, applied: null, lastError: `fold ${number} failed (${error.kind}): ${error.message}` };
}

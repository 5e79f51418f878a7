/**
 * Candidate-summary validation: a summary is applied only when it has text, was not cut off, and is smaller than
 * what it replaces. Anything else is asked once more and then the fold fails "unfolded": the transcript is sent as it
 * was, which is always safe.
 */

/** The "unfolded" error kinds (the context is sent as it was). */
export type SummaryErrorKind = 'no_text' | 'incomplete' | 'too_large';

/** A rejected candidate summary. `kind` says why; the message never carries the summary text. */
export class SummaryRejectedError extends Error {
  override name = 'SummaryRejectedError';
  constructor(
    readonly kind: SummaryErrorKind,
    message: string
  ) {
    super(message);
  }
}

/** The candidate had no text (or no compaction item). */
export class SummaryNoTextError extends SummaryRejectedError {
  override name = 'SummaryNoTextError';
  constructor(detail = 'summary response has no text') {
    super('no_text', detail);
  }
}

/** The candidate was cut off (finish_reason length, status incomplete). */
export class SummaryIncompleteError extends SummaryRejectedError {
  override name = 'SummaryIncompleteError';
  constructor(readonly reason: string) {
    super('incomplete', `summary response is incomplete: ${reason}`);
  }
}

/** The candidate is not smaller than what it folds. */
export class SummaryTooLargeError extends SummaryRejectedError {
  override name = 'SummaryTooLargeError';
  constructor(
    readonly summaryTokens: number,
    readonly foldedTokens: number
  ) {
    super('too_large', `summary is not smaller than what it folds: ${summaryTokens} tokens for ${foldedTokens}`);
  }
}

/** What is known about one candidate. */
export interface SummaryCandidate {
  /** The summary text ("" for none). Compaction items pass a non-empty stand-in such as their type. */
  text: string;
  /** Why the response was cut off, when it was (e.g. `length`, `max_output_tokens`). */
  incompleteReason?: string;
  /** Estimated tokens the summary adds to the context (summary item minus an empty summary item). */
  summaryTokens: number;
  /** Tokens of the items it replaces. */
  foldedTokens: number;
}

/**
 * Checks a candidate, in this order: incomplete, then no text, then too large.
 *
 * @returns the rejection, or `undefined` when the candidate may be applied
 */
export function validateSummary(c: SummaryCandidate): SummaryRejectedError | undefined {
  if (c.incompleteReason !== undefined) return new SummaryIncompleteError(c.incompleteReason);
  if (c.text.trim() === '') return new SummaryNoTextError();
  if (c.summaryTokens >= c.foldedTokens) return new SummaryTooLargeError(c.summaryTokens, c.foldedTokens);
  return undefined;
}

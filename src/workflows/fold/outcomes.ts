/**
 * The summarizer activities' answers as fold-step outcomes, one converter per activity: `summarizeFold` (the
 * conversation workflow's, and the CLI's) and `summarize` (the embeddable Compactor's). An unusable summary cannot
 * improve by retrying, so every failed answer is non-retryable.
 */
import type { SummarizeFoldResult } from '../../activities/types';
import type { SummarizeOutput } from '../../activities/summarize';
import type { SummaryOutcome } from './fold-step';

/** The `summarizeFold` activity's result as a fold-step outcome. */
export function outcomeOfSummarizeFold(r: SummarizeFoldResult): SummaryOutcome {
  const common = {
    usage: r.usage,
    responseId: r.responseId,
    outputTypes: r.outputTypes,
    attempts: r.attempts,
    ...(r.requestDigest !== undefined ? { requestDigest: r.requestDigest } : {}),
  };
  return r.ok
    ? { ok: true, summary: r.summary, identifiers: r.identifiers, ...(r.carry ? { carry: r.carry } : {}), ...common }
    : { ok: false, error: r.error, nonRetryable: true, ...common };
}

/** The `summarize` activity's result (text or items, with identifier retention) as a fold-step outcome. */
export function outcomeOfSummarize(result: SummarizeOutput): SummaryOutcome {
  const common = {
    usage: result.usage ?? null,
    responseId: result.responseId ?? null,
    outputTypes: result.outputTypes,
    attempts: result.attempts,
  };
  if (!result.ok) {
    return { ok: false, error: { kind: result.kind, message: result.message }, nonRetryable: true, ...common };
  }
  const summary = result.items
    ? { kind: 'items' as const, items: result.items }
    : { kind: 'text' as const, text: result.text ?? '' };
  const identifiers = { kept: result.retention.kept, total: result.retention.total };
  return { ok: true, summary, identifiers, ...(result.carry ? { carry: result.carry } : {}), ...common };
}

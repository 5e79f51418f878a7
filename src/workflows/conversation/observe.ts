/**
 * Workflow-side reporting: metrics through the `conversationMetrics` sink and structured log lines through the
 * workflow logger (which adds the workflow id and run id). Neither leaves a history event or repeats on replay.
 */
import { currentUpdateInfo, log, proxySinks } from '@temporalio/workflow';
import type { FoldRecord } from '../../core/fold/fold-record';
import type { ConversationSinks } from '../../metrics/sink-types';
import type { PrefixReuse } from '../../contract/prefix-reuse';

const { conversationMetrics } = proxySinks<ConversationSinks>();

/** Reports one fold attempt (applied, truncated or failed). */
export function observeFold(record: FoldRecord): void {
  const outcome = !record.ok ? 'failed' : record.output === null ? 'truncated' : 'ok';
  conversationMetrics.fold({
    outcome,
    kind: record.error?.kind ?? null,
    tokensBefore: record.tokensBefore,
    tokensAfter: record.tokensAfter,
  });
  const fields = {
    fold: record.number,
    outcome,
    tokensBefore: record.tokensBefore,
    tokensAfter: record.tokensAfter,
    messagesFolded: record.droppedCount,
    // A step's times are its worker's wall clock, a task's the server's: a small skew must not read as negative.
    durationMs: Math.max(0, record.finishedAt - record.startedAt),
    ...(record.identifiers
      ? { identifiersKept: record.identifiers.kept, identifiersTotal: record.identifiers.total }
      : {}),
  };
  if (record.ok) log.info('fold applied', fields);
  else log.warn('fold failed', { ...fields, errorKind: record.error?.kind, error: record.error?.message });
}

/** Reports a fold skipped by the back-off. */
export function observeBackoff(): void {
  conversationMetrics.backoff();
  log.info('fold backed off: the same prefix failed before');
}

/** Reports the prompt-cache reuse of a context `prepare` returns (`dc_prepare_{context,prefix}_tokens_total`). */
export function observePrefix(reuse: PrefixReuse): void {
  conversationMetrics.prefix({ contextTokens: reuse.contextTokens, prefixTokens: reuse.tokens });
}

/** Runs a `prepare` handler, reporting when it started and finished (the worker measures the time between). */
export async function observePrepare<T>(handler: () => Promise<T>): Promise<T> {
  const observation = startPrepareObservation();
  let ok = false;
  try {
    const result = await handler();
    ok = true;
    return result;
  } finally {
    observation.finish(ok);
  }
}

/** Reports that a `prepare` started. @returns what reports its end. */
export function startPrepareObservation(): { finish: (ok: boolean) => void } {
  const id = currentUpdateInfo()?.id ?? '';
  conversationMetrics.prepareStarted(id);
  return { finish: (ok) => conversationMetrics.prepareFinished(id, ok) };
}

/**
 * The worker side of {@link ConversationSinks}: forwards workflow observations to the metrics, or drops them when the
 * worker runs without metrics (every worker registers the sink, so workflow code never calls an unknown one).
 */
import type { InjectedSinks } from '@temporalio/worker';
import type { ConversationMetrics } from './conversation-metrics';
import type { ConversationSinks } from './sink-types';

/** @returns the sinks to pass as `Worker.create({ sinks })`. */
export function conversationSinks(metrics?: ConversationMetrics): InjectedSinks<ConversationSinks> {
  const key = (runId: string, updateId: string): string => `${runId}/${updateId}`;
  return {
    conversationMetrics: {
      fold: { fn: (_info, o) => metrics?.fold(o) },
      backoff: { fn: () => metrics?.backoff() },
      prepareStarted: { fn: (info, updateId) => metrics?.prepareStarted(key(info.runId, updateId)) },
      prepareFinished: { fn: (info, updateId, ok) => metrics?.prepareFinished(key(info.runId, updateId), ok) },
      prefix: { fn: (_info, o) => metrics?.prefix(o) },
    },
  };
}

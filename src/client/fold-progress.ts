/**
 * Watching a background fold from the client: after a `prepare` that leaves a fold in flight, the client reads the
 * `state` query (no history event) and the workflow's pending summarize activity (its attempt, last failure and
 * last heartbeat, from `describe`) every interval, and hands each change to the caller's `onFoldProgress` — so an
 * agent UI can show "compacting…" without polling by hand. It stops once the summary is ready or the fold is gone.
 */
import type { WorkflowHandle } from '@temporalio/client';
import type { FoldRecord } from '../core/fold/fold-record';
import { stateQuery, type FoldProgress } from '../contract/definitions';

/** The summarize activity as the server reports it while it runs. */
export interface SummarizeActivityProgress {
  /** The activity's current attempt (Temporal's retries), from 1. */
  attempt: number;
  /** Why the previous attempt failed; `null` on the first. */
  lastFailure: string | null;
  /** When the worker last heartbeated, epoch ms; `null` before the first heartbeat. */
  lastHeartbeatAt: number | null;
}

/** One progress report. */
export interface FoldProgressEvent {
  /** The fold in flight; `null` once there is none (applied, failed or discarded). */
  folding: FoldProgress | null;
  /** The summarize activity while it is pending on the server; `null` when it is not. */
  activity: SummarizeActivityProgress | null;
  /** The most recent fold record (the one just applied, once `folding` is `null`). */
  lastFold: FoldRecord | null;
}

/** Consecutive failed reads after which a round of watching ends. */
const MAX_READ_FAILURES = 5;

/** Phases during which the summarizer still writes. */
const RUNNING: readonly string[] = ['summarizing', 'waiting', 'replacing'];

/** Polls one conversation's fold progress; one loop at a time. */
export class FoldWatcher {
  private running = false;

  constructor(
    private readonly handle: () => WorkflowHandle,
    private readonly onProgress: (event: FoldProgressEvent) => void,
    private readonly intervalMs: number
  ) {}

  /** Starts watching (no-op when already watching). Never throws: a read that keeps failing ends this round. */
  watch(): void {
    if (this.running) return;
    this.running = true;
    void this.loop().finally(() => (this.running = false));
  }

  private async loop(): Promise<void> {
    let last = '';
    let failures = 0;
    for (;;) {
      let event: FoldProgressEvent;
      try {
        event = await readProgress(this.handle());
        failures = 0;
      } catch {
        // A query can fail while a worker restarts; give up after a few in a row (the conversation may be closed).
        if (++failures >= MAX_READ_FAILURES) return;
        await new Promise((resolve) => setTimeout(resolve, this.intervalMs));
        continue;
      }
      const key = JSON.stringify(event);
      if (key !== last) {
        last = key;
        try {
          this.onProgress(event);
        } catch {
          // The caller's callback failing must not stop the conversation's client.
        }
      }
      if (!event.folding || !RUNNING.includes(event.folding.phase)) return;
      await new Promise((resolve) => setTimeout(resolve, this.intervalMs));
    }
  }
}

/**
 * Reads the fold in flight (`state` query) and the pending summarize activity (`describe`).
 * @returns the progress now.
 */
export async function readProgress(handle: WorkflowHandle): Promise<FoldProgressEvent> {
  const [state, description] = await Promise.all([handle.query(stateQuery), handle.describe()]);
  const pending = (description.raw.pendingActivities ?? []).find((a) => a.activityType?.name === 'summarizeFold');
  const heartbeat = pending?.lastHeartbeatTime?.seconds;
  const activity: SummarizeActivityProgress | null = pending
    ? {
        attempt: pending.attempt ?? 1,
        lastFailure: pending.lastFailure?.message ?? null,
        lastHeartbeatAt: heartbeat != null ? Number(heartbeat) * 1000 : null,
      }
    : null;
  return { folding: state.folding, activity, lastFold: state.lastFold ?? null };
}

/**
 * Retention of closed conversations: a sweep purges every conversation whose workflow closed more than the retention
 * period ago (its archive erased, every execution deleted), and the archives of conversations Temporal no longer
 * knows once they are idle that long. The worker runs it on a timer (`retention:` in temporal.yaml); every step is
 * idempotent, so several workers sweeping at once, or a sweep cut short, do no harm.
 */
import type { WorkflowService } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import type { ConversationArchive } from '../archive/archive';
import { deleteExecutions } from '../client/delete-executions';

/** gRPC NOT_FOUND. */
const NOT_FOUND = 5;
const RUNNING = temporal.api.enums.v1.WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING;

/** Options of {@link sweepRetention}. */
export interface RetentionSweepOptions {
  archive: ConversationArchive;
  service: WorkflowService;
  namespace: string;
  /** A closed conversation is purged once it has been closed this long, ms (> 0). */
  retentionMs: number;
  /** The clock. @default Date.now */
  now?: () => number;
  /** How long the deletion of one conversation's executions may take, ms. @default 60000 */
  deleteTimeoutMs?: number;
  /** Archive keys read per page. @default 500 */
  pageSize?: number;
}

/** What one sweep did. */
export interface SweepOutcome {
  /** Conversations erased: archive purged and executions deleted. */
  purged: number;
  /** Idle archives kept: the workflow is still running, or closed for less than the period. */
  kept: number;
  /** Conversations whose purge failed this time (the next sweep tries again); the first error's message. */
  failed: number;
  firstError: string | null;
}

/**
 * One retention sweep. Candidates are the archive's keys with no write for the period (a conversation closed for
 * that long wrote nothing since, so none is missed); each is checked against Temporal before anything is erased.
 * @returns counts of what it purged, kept and failed to purge.
 * @throws Error for an invalid `retentionMs`, or when the archive cannot be read.
 */
export async function sweepRetention(options: RetentionSweepOptions): Promise<SweepOutcome> {
  const { archive, retentionMs } = options;
  if (!Number.isFinite(retentionMs) || retentionMs <= 0)
    throw new Error(`retentionMs must be a positive number of milliseconds, got ${String(retentionMs)}`);
  const cutoff = (options.now ?? Date.now)() - retentionMs;
  const outcome: SweepOutcome = { purged: 0, kept: 0, failed: 0, firstError: null };
  let after: string | undefined;
  for (;;) {
    const page = await archive.idleKeys(new Date(cutoff), {
      limit: options.pageSize ?? 500,
      ...(after !== undefined ? { after } : {}),
    });
    for (const key of page) {
      try {
        if (await expired(options, key, cutoff)) {
          await deleteExecutions(options.service, options.namespace, key, {
            deadline: Date.now() + (options.deleteTimeoutMs ?? 60_000),
          });
          await archive.purge(key);
          outcome.purged++;
        } else outcome.kept++;
      } catch (err) {
        outcome.failed++;
        outcome.firstError ??= `${key}: ${err instanceof Error ? err.message : String(err)}`;
      }
    }
    if (page.length < (options.pageSize ?? 500)) return outcome;
    after = page[page.length - 1];
  }
}

/** @returns true when workflow `key` is gone from Temporal, or closed before `cutoff`. */
async function expired(options: RetentionSweepOptions, key: string, cutoff: number): Promise<boolean> {
  let info;
  try {
    const described = await options.service.describeWorkflowExecution({
      namespace: options.namespace,
      execution: { workflowId: key },
    });
    info = described.workflowExecutionInfo;
  } catch (err) {
    if ((err as { code?: unknown } | null)?.code === NOT_FOUND) return true;
    throw err;
  }
  if (!info || info.status === RUNNING || !info.closeTime) return false;
  const seconds = info.closeTime.seconds;
  const closedAt =
    (typeof seconds === 'number' ? seconds : (seconds?.toNumber() ?? 0)) * 1000 + (info.closeTime.nanos ?? 0) / 1e6;
  return closedAt < cutoff;
}

/** A sweep repeated on a timer until stopped. */
export interface RetentionTimer {
  /** Stops the timer and waits for a sweep in progress. */
  stop(): Promise<void>;
}

/**
 * Runs {@link sweepRetention} now and then `intervalMs` after each sweep ends (one at a time), reporting each outcome
 * (or the error of a sweep that could not run) to `report`.
 * @returns the timer, to stop at shutdown.
 */
export function startRetentionTimer(
  options: RetentionSweepOptions,
  intervalMs: number,
  report: (outcome: SweepOutcome | Error) => void
): RetentionTimer {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const sweep = (): void => {
    running = sweepRetention(options)
      .then(
        (outcome) => report(outcome),
        (err: unknown) => report(err instanceof Error ? err : new Error(String(err)))
      )
      .then(() => {
        if (stopped) return;
        timer = setTimeout(sweep, intervalMs);
        timer.unref();
      });
  };
  sweep();
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}

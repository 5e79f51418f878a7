/**
 * Riding out crashes: the answers a Temporal server gives while a worker is down or replaying (unavailable,
 * deadline exceeded, "workflow task in failed state", an update RPC timeout) are transient, and the call is tried
 * again with back-off until a deadline. Everything else is the caller's to see.
 */
import { WorkflowUpdateFailedError, WorkflowUpdateRPCTimeoutOrCancelledError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';

/** gRPC status codes that mean "try again": DEADLINE_EXCEEDED, RESOURCE_EXHAUSTED, ABORTED, UNAVAILABLE. */
const TRANSIENT_CODES = new Set([4, 8, 10, 14]);
/**
 * "Namespace X is not found." (NOT_FOUND) is the history service's answer while its namespace cache misses because
 * Temporal's database is restarting; a namespace that does not exist is refused by the frontend with another message
 * (the SDK's NamespaceNotFoundError, "Namespace not found: 'X'"), which stays final. "Unable to perform workflow
 * execution update due to unexpected workflow task failure." is an update the server aborted because the workflow task
 * carrying it was lost (the history service killed); made again with the same update id and writer sequence, it is
 * stored once.
 */
const TRANSIENT_MESSAGES =
  /workflow task in failed state|context deadline exceeded|workflow is busy|unavailable|^namespace \S+ is not found\.$|due to unexpected workflow task failure/i;
/** A query no worker finished (killed, or still replaying); not one the server refused outright. */
const QUERY_FAILED = /^failed to query workflow/i;
/** gRPC codes that no retry changes: INVALID_ARGUMENT, NOT_FOUND, PERMISSION_DENIED, UNIMPLEMENTED, UNAUTHENTICATED. */
const PERMANENT_CODES = new Set([3, 5, 7, 12, 16]);
/**
 * FAILED_PRECONDITION with a `WorkflowNotReadyFailure`: the workflow task that carried the update failed (say, the
 * SDK completed it with a protocol message the server refused) and the server dropped the update, so the update never
 * ran; sent again it is delivered to the next task.
 */
const FAILED_PRECONDITION = 9;
const UPDATE_DROPPED = /unexpected workflow task failure/i;
const NOT_READY_DETAIL = 'WorkflowNotReadyFailure';

/** @returns true when `e` is the server's answer for an update it dropped after a failed workflow task. */
function isDroppedUpdate(e: Error): boolean {
  if ((e as { code?: unknown }).code !== FAILED_PRECONDITION) return false;
  if (UPDATE_DROPPED.test(e.message)) return true;
  const metadata = (e as { metadata?: { get?: (key: string) => unknown[] } }).metadata;
  const details = metadata?.get?.('grpc-status-details-bin')?.[0];
  return Buffer.isBuffer(details) && details.includes(NOT_READY_DETAIL);
}

/**
 * An answer the client itself knows to be transient: the server no longer holds an update it had been sent (sending
 * it again is safe), or an append whose outcome the client needs is still running in the workflow.
 */
export class TryAgain extends Error {
  override readonly name = 'TryAgain';
}

/**
 * @returns true for a Temporal server answer worth retrying with the same writer sequence (the archive judges its
 *   database's errors apart: `isTransientDatabaseError`, other errors of another system).
 */
export function isTransientServerAnswer(err: unknown): boolean {
  if (err instanceof TryAgain) return true;
  // An update that ran and failed is final, except OutOfOrder (an earlier append of this writer is still on its way).
  if (err instanceof WorkflowUpdateFailedError) {
    return err.cause instanceof ApplicationFailure && err.cause.type === 'OutOfOrder';
  }
  if (err instanceof WorkflowUpdateRPCTimeoutOrCancelledError) return true;
  if (err instanceof Error && QUERY_FAILED.test(err.message)) {
    const code = (err.cause as { code?: unknown } | undefined)?.code;
    return !(typeof code === 'number' && PERMANENT_CODES.has(code));
  }
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 8; e = e.cause, depth++) {
    if (isDroppedUpdate(e)) return true;
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'number' && TRANSIENT_CODES.has(code)) return true;
    if (TRANSIENT_MESSAGES.test(e.message)) return true;
  }
  return false;
}

/** Back-off between attempts. */
export interface RetryOptions {
  /**
   * Give up (rethrow the last error) once this much time has passed since the first attempt; an attempt is made even
   * when it is 0 or less (bounded by `bounded`, it then ends at once).
   */
  deadlineMs: number;
  /** @default 100 */
  initialDelayMs?: number;
  /** @default 2000 */
  maxDelayMs?: number;
  /**
   * Runs one attempt so that it ends by the absolute time given (e.g. `connection.withDeadline`): an update the server
   * accepted but no worker completes would otherwise be polled for its outcome with no end, past `deadlineMs`.
   * @default none: an attempt is not bounded
   */
  bounded?: <R>(deadline: number, attempt: () => Promise<R>) => Promise<R>;
  /**
   * Judges errors transient that only the caller can know to be (e.g. a namespace that answered before):
   * consulted after {@link isTransientServerAnswer}.
   * @default none
   */
  alsoTransient?: (err: unknown) => boolean;
}

/**
 * Calls `fn` until it succeeds, fails with a non-transient error, or the deadline passes.
 * @returns what `fn` returns.
 * @throws the last error.
 */
export async function retryTransient<T>(fn: () => Promise<T>, options: RetryOptions): Promise<T> {
  const start = Date.now();
  const deadline = start + options.deadlineMs;
  let delay = options.initialDelayMs ?? 100;
  for (;;) {
    try {
      return await (options.bounded ? options.bounded(deadline, fn) : fn());
    } catch (err) {
      const left = options.deadlineMs - (Date.now() - start);
      const transient = isTransientServerAnswer(err) || (options.alsoTransient?.(err) ?? false);
      if (!transient || left <= 0) throw err;
      // Full jitter keeps many clients of one restarted worker from retrying in step.
      await new Promise((resolve) => setTimeout(resolve, Math.min(left, delay * (0.5 + Math.random() / 2))));
      delay = Math.min(options.maxDelayMs ?? 2000, delay * 2);
    }
  }
}

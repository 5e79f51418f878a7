import { ApplicationFailure, Context } from '@temporalio/activity';
import { ArchiveGapError, ArchiveInputError } from '../archive/archive';

/**
 * The archive key of the running activity: its workflow's id, as Temporal reports it. Never taken from the activity's
 * input, so no start argument can point a conversation at another one's archive.
 * @throws ApplicationFailure (non-retryable, type `InvalidInput`) when the activity was not started by a workflow.
 */
export function currentArchiveKey(): string {
  const workflowId = Context.current().info.workflowExecution?.workflowId;
  if (workflowId === undefined)
    throw ApplicationFailure.nonRetryable('archive activities run only on behalf of a workflow', 'InvalidInput');
  return workflowId;
}

/**
 * Runs an archive call; bad input and gaps become non-retryable failures (type `InvalidInput`: the same call would fail
 * the same way), everything else stays retryable (a database that is down now may be up on the next attempt).
 */
export async function archiveCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (err instanceof ArchiveInputError || err instanceof ArchiveGapError)
      throw ApplicationFailure.create({ message: err.message, type: 'InvalidInput', nonRetryable: true, cause: err });
    throw err;
  }
}

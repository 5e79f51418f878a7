/**
 * Deleting a conversation (a deletion request, GDPR art. 17): the `delete` update erases its archive and closes it,
 * then every Temporal execution of its workflow id is deleted. Each step is idempotent, so the whole is safe to repeat.
 */
import { WithStartWorkflowOperation, type Client } from '@temporalio/client';
import { deleteUpdate, type DeleteResult } from '../contract/definitions';
import { PROTOCOL_VERSION } from '../contract/protocol-version';
import type { conversationWorkflow } from '../workflows/conversation/conversation';
import { deleteExecutions, ExecutionsRemainError } from './delete-executions';
import { ConversationUnavailableError } from './errors';
import { isTransientServerAnswer, retryTransient } from './retry';

/** What `ConversationClient.delete` erased: the archive's counts and the workflow runs deleted. */
export interface DeletedConversation extends DeleteResult {
  /** Runs (executions) of the conversation's workflow id deleted, including the one the deletion itself ran in. */
  runs: number;
}

/** What {@link deleteConversation} needs. */
export interface DeleteConversationInput {
  client: Client;
  conversationId: string;
  workflowId: string;
  taskQueue: string;
  /** Absolute time (ms since the epoch) by which the update is done; the executions get as long again. */
  deadline: number;
  /** The update's id: a retry within one call is de-duplicated by the server. */
  updateId: string;
}

/**
 * Sends `delete` with a start: to the running conversation, or to a new run of its workflow id when it is closed or
 * gone (so the archive of a conversation closed long ago is erased too; the new run erases, closes and ends), then
 * deletes every run of the workflow id.
 * @throws ConversationUpdateError (via the caller) when the workflow refused the update; ConversationUnavailableError
 *   when the server or a worker stayed unavailable past the deadline (call it again: nothing is done twice).
 */
export async function deleteConversation(input: DeleteConversationInput): Promise<DeletedConversation> {
  const { client, conversationId, workflowId, taskQueue, deadline, updateId } = input;
  const send = (): Promise<DeleteResult> =>
    client.workflow.executeUpdateWithStart(deleteUpdate, {
      updateId,
      startWorkflowOperation: new WithStartWorkflowOperation<typeof conversationWorkflow>('conversationWorkflow', {
        workflowId,
        taskQueue,
        args: [{ conversationId, protocol: PROTOCOL_VERSION }],
        workflowIdConflictPolicy: 'USE_EXISTING',
        // Unlike an append, a deletion starts a closed conversation's workflow again: only a run can erase its archive.
        workflowIdReusePolicy: 'ALLOW_DUPLICATE',
      }),
    });
  try {
    const erased = await retryTransient(send, {
      deadlineMs: deadline - Date.now(),
      bounded: (end, attempt) => client.connection.withDeadline(end, attempt),
    });
    const runs = await deleteExecutions(client.workflowService, client.options.namespace, workflowId, {
      deadline: deadline + (deadline - Date.now()),
    });
    return { ...erased, runs };
  } catch (err) {
    if (!isTransientServerAnswer(err) && !(err instanceof ExecutionsRemainError)) throw err;
    const why = err instanceof Error ? err.message : String(err);
    throw new ConversationUnavailableError(
      `deleting conversation '${conversationId}' did not finish in time (call delete again): ${why}`,
      'unknown',
      err
    );
  }
}

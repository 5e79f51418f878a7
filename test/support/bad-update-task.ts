/**
 * A stand-in for the SDK defect of issue 22 item 16, at the server's door: takes one workflow task of a task queue
 * (as a worker would) and completes it with a `ProtocolMessageCommand` for each update it delivers that references a
 * completion message the task does not carry (`<message id>/complete`, the id Temporal's Rust core gives an update's
 * completion). The server fails the task with `BAD_UPDATE_WORKFLOW_EXECUTION_MESSAGE` ("ProtocolMessageCommand
 * referenced absent message ID …/request/complete") and drops the updates it carried, as in the crash trials. What a
 * client then sees does not depend on how the SDK got there.
 */
import type { Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';

/** What the stand-in saw: the workflow and the update ids its task carried. */
export interface SabotagedTask {
  workflowId: string;
  runId: string;
  updateIds: string[];
}

/**
 * Polls `taskQueue` (normal kind) for the next workflow task (within `timeoutMs`) and fails it as described above.
 * @returns the task's workflow and update ids.
 * @throws Error when no task arrived in time, or it carried no update.
 */
export async function failTaskWithAbsentUpdateMessage(
  client: Client,
  taskQueue: string,
  timeoutMs = 30_000
): Promise<SabotagedTask> {
  const service = client.workflowService;
  const namespace = client.options.namespace;
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    const task = await client.connection.withDeadline(Math.min(end, Date.now() + 10_000), () =>
      service.pollWorkflowTaskQueue({
        namespace,
        taskQueue: { name: taskQueue, kind: temporal.api.enums.v1.TaskQueueKind.TASK_QUEUE_KIND_NORMAL },
        identity: 'absent-update-message-stand-in',
      })
    );
    if (!task.taskToken || task.taskToken.length === 0) continue; // the long poll ended empty
    const requests = (task.messages ?? []).filter((m) => m.id);
    if (requests.length === 0) throw new Error(`the first workflow task on ${taskQueue} carried no update`);
    await service
      .respondWorkflowTaskCompleted({
        namespace,
        taskToken: task.taskToken,
        identity: 'absent-update-message-stand-in',
        commands: requests.map((m) => ({
          commandType: temporal.api.enums.v1.CommandType.COMMAND_TYPE_PROTOCOL_MESSAGE,
          protocolMessageCommandAttributes: { messageId: `${m.id}/complete` },
        })),
        messages: [],
      })
      .catch(() => undefined); // the server answers the bad completion with an error after failing the task
    return {
      workflowId: task.workflowExecution?.workflowId ?? '',
      runId: task.workflowExecution?.runId ?? '',
      updateIds: requests.map((m) => m.protocolInstanceId ?? ''),
    };
  }
  throw new Error(`no workflow task carrying an update arrived on ${taskQueue} within ${timeoutMs} ms`);
}

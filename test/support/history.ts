import type { WorkflowHandle } from '@temporalio/client';

/** @returns how many WorkflowTaskFailed events a workflow's history (this run) holds. */
export async function workflowTaskFailures(handle: WorkflowHandle): Promise<number> {
  const history = await handle.fetchHistory();
  return (history.events ?? []).filter((e) => e.workflowTaskFailedEventAttributes).length;
}

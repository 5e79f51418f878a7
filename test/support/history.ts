import type { WorkflowHandle } from '@temporalio/client';

/** @returns how many WorkflowTaskFailed events a workflow's history (this run) holds. */
export async function workflowTaskFailures(handle: WorkflowHandle): Promise<number> {
  const history = await handle.fetchHistory();
  return (history.events ?? []).filter((e) => e.workflowTaskFailedEventAttributes).length;
}

/**
 * @returns how many WorkflowTaskFailed events every run of a workflow id holds (its runs continue as new), the
 * current one included even before visibility lists it. Each run's history is read in one response: for histories of
 * small messages (a page of a history holding megabyte payloads can exceed the client's 4 MB message limit).
 */
export async function workflowTaskFailuresInEveryRun(handle: WorkflowHandle): Promise<number> {
  const runIds = new Set<string>([(await handle.describe()).runId]);
  for await (const run of handle.client.list({ query: `WorkflowId = '${handle.workflowId}'` })) runIds.add(run.runId);
  let failures = 0;
  for (const runId of runIds) failures += await workflowTaskFailures(handle.client.getHandle(handle.workflowId, runId));
  return failures;
}

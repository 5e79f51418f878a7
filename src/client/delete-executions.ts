/**
 * Deleting every execution (run) of one workflow id from Temporal: its histories and its visibility records, so no
 * message text a run's history carried can be read back. Used by `ConversationClient.delete` and the worker's
 * retention sweep; idempotent (an execution already gone is done), retried through transient answers.
 */
import type { WorkflowService } from '@temporalio/client';
import { retryTransient } from './retry';

/** gRPC NOT_FOUND: the execution (or run) is gone already. */
const NOT_FOUND = 5;

/** Runs of the workflow id were still found at the deadline (the server is slow to delete, or a run keeps starting). */
export class ExecutionsRemainError extends Error {
  override readonly name = 'ExecutionsRemainError';
}

/** Options of {@link deleteExecutions}. */
export interface DeleteExecutionsOptions {
  /** The absolute time (ms since the epoch) by which every run must be gone. */
  deadline: number;
  /** How long to wait between rounds while the server finishes deleting. @default 250 */
  pollMs?: number;
}

/**
 * Deletes every run of `workflowId` (a running one is terminated first, by the server) and waits until neither
 * DescribeWorkflowExecution nor ListWorkflowExecutions finds any: Temporal deletes histories and visibility records
 * in the background, so a run is asked for again until it is gone.
 * @returns how many runs it asked the server to delete (0 when there were none).
 * @throws ExecutionsRemainError naming the workflow id when a run is still found at `deadline`; the server's
 *   non-transient errors.
 */
export async function deleteExecutions(
  service: WorkflowService,
  namespace: string,
  workflowId: string,
  options: DeleteExecutionsOptions
): Promise<number> {
  const asked = new Set<string>();
  for (;;) {
    const runs = await attempt(() => listRuns(service, namespace, workflowId), options.deadline);
    const latest = await attempt(() => describeRun(service, namespace, workflowId), options.deadline);
    if (latest !== null && !runs.includes(latest)) runs.push(latest);
    if (runs.length === 0) return asked.size;
    for (const runId of runs) {
      await attempt(() => deleteRun(service, namespace, workflowId, runId), options.deadline);
      asked.add(runId);
    }
    if (Date.now() >= options.deadline)
      throw new ExecutionsRemainError(
        `workflow ${workflowId} still has ${runs.length} execution(s) after the deletion deadline`
      );
    await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 250));
  }
}

/** @returns the run ids visibility lists for `workflowId`, every status, every page. */
async function listRuns(service: WorkflowService, namespace: string, workflowId: string): Promise<string[]> {
  const runs: string[] = [];
  let nextPageToken: Uint8Array | undefined;
  do {
    const page = await service.listWorkflowExecutions({
      namespace,
      query: `WorkflowId = ${visibilityString(workflowId)}`,
      pageSize: 100,
      ...(nextPageToken ? { nextPageToken } : {}),
    });
    for (const e of page.executions ?? []) if (e.execution?.runId) runs.push(e.execution.runId);
    nextPageToken = page.nextPageToken && page.nextPageToken.length > 0 ? page.nextPageToken : undefined;
  } while (nextPageToken);
  return runs;
}

/** @returns the run id of the latest run of `workflowId`; `null` when there is none. */
async function describeRun(service: WorkflowService, namespace: string, workflowId: string): Promise<string | null> {
  try {
    const described = await service.describeWorkflowExecution({ namespace, execution: { workflowId } });
    return described.workflowExecutionInfo?.execution?.runId ?? null;
  } catch (err) {
    if (isNotFound(err)) return null;
    throw err;
  }
}

async function deleteRun(
  service: WorkflowService,
  namespace: string,
  workflowId: string,
  runId: string
): Promise<void> {
  try {
    await service.deleteWorkflowExecution({ namespace, workflowExecution: { workflowId, runId } });
  } catch (err) {
    if (!isNotFound(err)) throw err;
  }
}

/** Runs one server call, retrying transient answers until `deadline`. */
function attempt<T>(fn: () => Promise<T>, deadline: number): Promise<T> {
  return retryTransient(fn, { deadlineMs: deadline - Date.now() });
}

function isNotFound(err: unknown): boolean {
  return (err as { code?: unknown } | null)?.code === NOT_FOUND;
}

/** A string literal of Temporal's visibility query language. */
function visibilityString(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

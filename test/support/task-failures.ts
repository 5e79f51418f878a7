/**
 * The whole-suite promise that no workflow task ever fails: before a test server is torn down, every workflow run it
 * holds (open or closed, every continue-as-new run) has its history scanned for `WorkflowTaskFailed` events. A task
 * failure wedges a conversation until a fixed worker is deployed, so one anywhere fails the suite with its workflow id.
 */
import type { Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';

/**
 * `temporal workflow reset` records the reset point as a WorkflowTaskFailed event with this cause (its message is the
 * operator's reason): an operator's action, not a task that failed, so it is not reported.
 */
const RESET = temporal.api.enums.v1.WorkflowTaskFailedCause.WORKFLOW_TASK_FAILED_CAUSE_RESET_WORKFLOW;

/** One failed workflow task found in a history. */
export interface TaskFailure {
  workflowId: string;
  runId: string;
  workflowType: string;
  message: string;
}

/** Workflow ids whose task failure a test provokes on purpose (the check's own test); the suite check skips them. */
const deliberate = new Set<string>();

/** Marks a throwaway workflow whose task failure is deliberate, so the suite check does not report it. */
export function expectTaskFailure(workflowId: string): void {
  deliberate.add(workflowId);
}

/**
 * Scans the history of every workflow run `query` lists (all of them by default) for `WorkflowTaskFailed` events
 * (except the reset markers `temporal workflow reset` writes).
 * @param opts.skip workflow ids not reported. @default the ids passed to `expectTaskFailure`
 * @returns the failures found (the first one of each run) and how many runs were scanned.
 */
export async function findTaskFailures(
  client: Client,
  opts: { query?: string; skip?: ReadonlySet<string> } = {}
): Promise<{ runs: number; failures: TaskFailure[] }> {
  const skip = opts.skip ?? deliberate;
  const runs: { workflowId: string; runId: string; workflowType: string }[] = [];
  for await (const info of client.workflow.list(opts.query !== undefined ? { query: opts.query } : {})) {
    if (!skip.has(info.workflowId))
      runs.push({ workflowId: info.workflowId, runId: info.runId, workflowType: info.type });
  }
  const failures: TaskFailure[] = [];
  // A few histories at a time: some are megabytes (the byte-budget tests), and the server is shared.
  let next = 0;
  const scan = async (): Promise<void> => {
    while (next < runs.length) {
      const run = runs[next++]!;
      const history = await client.workflow.getHandle(run.workflowId, run.runId).fetchHistory();
      const failed = (history.events ?? []).find(
        (e) => e.workflowTaskFailedEventAttributes && e.workflowTaskFailedEventAttributes.cause !== RESET
      );
      if (failed) {
        const message = failed.workflowTaskFailedEventAttributes?.failure?.message ?? '(no message)';
        failures.push({ ...run, message });
      }
    }
  };
  await Promise.all(Array.from({ length: 4 }, scan));
  return { runs: runs.length, failures };
}

/**
 * @throws Error naming every workflow (id, run, type, the task's error) with a `WorkflowTaskFailed` event.
 * @returns how many runs were scanned.
 */
export async function assertNoTaskFailures(
  client: Client,
  opts: { query?: string; skip?: ReadonlySet<string> } = {}
): Promise<number> {
  const { runs, failures } = await findTaskFailures(client, opts);
  if (failures.length > 0) {
    const lines = failures.map((f) => `  ${f.workflowId} (run ${f.runId}, ${f.workflowType}): ${f.message}`);
    throw new Error(
      `${failures.length} workflow run(s) of ${runs} had a WorkflowTaskFailed event:\n${lines.join('\n')}`
    );
  }
  return runs;
}

/**
 * The process `durable-compaction replay` runs the SDK's replayer in (`node replay-process FILE WORKFLOW_ID`): the
 * replayer's native core can panic and then keeps its process from exiting, even through `process.exit()`, so the
 * command runs it apart, sends the verdict over IPC, and kills this process once it has the verdict or its time is up.
 */
import { DeterminismViolationError } from '@temporalio/workflow';
import { Runtime, Worker } from '@temporalio/worker';
import { StructuredLogger } from '../logging/json-logger';
import { conversationSinks } from '../metrics/sinks';
import { workflowSource } from '../server/workflow-source';
import { historyFromProtoJson } from './history-json';
import { readJsonFile } from './io';

/** What the replay process reports to the command. */
export type ReplayVerdict =
  { ok: true; events: number } | { ok: false; kind: 'nondeterminism' | 'failure' | 'timeout'; error: string };

/** Replays the history in `file` as workflow `workflowId`. @returns the verdict; never throws. */
async function replay(file: string, workflowId: string): Promise<ReplayVerdict> {
  try {
    const history = historyFromProtoJson(readJsonFile(file));
    // The replay worker's own INFO lines (bundling) would bury the one line of JSON the command prints.
    Runtime.install({
      logger: new StructuredLogger({ level: 'error' }),
      telemetryOptions: { logging: { filter: { core: 'ERROR', other: 'ERROR' }, forward: {} } },
    });
    await Worker.runReplayHistory(
      { ...workflowSource(), sinks: conversationSinks(), replayName: 'durable-compaction' },
      history,
      workflowId
    );
    return { ok: true, events: history.events?.length ?? 0 };
  } catch (err) {
    const kind = err instanceof DeterminismViolationError ? 'nondeterminism' : 'failure';
    return { ok: false, kind, error: err instanceof Error ? err.message : String(err) };
  }
}

if (require.main === module) {
  const [file, workflowId] = process.argv.slice(2);
  void replay(file!, workflowId!).then((verdict) => process.send?.(verdict));
}

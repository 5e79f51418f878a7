/**
 * `durable-compaction replay FILE`: replays a downloaded workflow history (the Temporal UI's download, or
 * `temporal workflow show --workflow-id ID --output json`) against this checkout's workflow code, to check that a
 * change keeps running conversations replaying before it is deployed.
 */
import { DeterminismViolationError } from '@temporalio/workflow';
import { Runtime, Worker } from '@temporalio/worker';
import { StructuredLogger } from '../logging/json-logger';
import { conversationSinks } from '../metrics/sinks';
import { workflowSource } from '../server/workflow-source';
import { historyFromProtoJson } from './history-json';
import { CliUsageError, parseFlags, readJsonFile, type CliIO } from './io';

export const replayHelp = `usage: durable-compaction replay FILE
Replays a workflow history in JSON (Temporal UI download, or 'temporal workflow show --output json') with this
checkout's workflow code. Prints {"ok": true, "workflowId", "events"} when it replays, or {"ok": false, "error"}
and exits 1 when the code no longer matches the history. Exit 2 when FILE is not a readable JSON history.`;

/** @returns the history in FILE. @throws CliUsageError when it cannot be read or is not a history. */
function readHistory(file: string): ReturnType<typeof historyFromProtoJson> {
  const json = readJsonFile(file);
  const events = (json as { events?: unknown } | null)?.events;
  if (!Array.isArray(events) || events.length === 0)
    throw new CliUsageError(`${file} is not a workflow history (no "events" array)`);
  try {
    return historyFromProtoJson(json);
  } catch (err) {
    throw new CliUsageError(`${file} is not a workflow history: ${(err as Error).message}`);
  }
}

/**
 * Runs `replay`.
 * @returns 0 when the history replays, 1 when it does not; rejects with CliUsageError (exit 2) on bad input.
 */
export async function runReplay(args: string[], io: CliIO): Promise<number> {
  const { positional } = parseFlags(args, []);
  if (positional.length !== 1) throw new CliUsageError('expected one FILE (a workflow history in JSON)');
  const history = readHistory(positional[0]!);
  const started = history.events?.[0]?.workflowExecutionStartedEventAttributes;
  const workflowId = started?.workflowId ?? positional[0]!;
  // The replay worker's own INFO lines (bundling) would bury the one line of JSON this command prints.
  Runtime.install({
    logger: new StructuredLogger({ level: 'error' }),
    telemetryOptions: { logging: { filter: { core: 'ERROR', other: 'ERROR' }, forward: {} } },
  });
  try {
    await Worker.runReplayHistory(
      { ...workflowSource(), sinks: conversationSinks(), replayName: 'durable-compaction' },
      history,
      workflowId
    );
  } catch (err) {
    const kind = err instanceof DeterminismViolationError ? 'nondeterminism' : 'failure';
    io.stdout(JSON.stringify({ ok: false, workflowId, kind, error: (err as Error).message }));
    return 1;
  }
  io.stdout(JSON.stringify({ ok: true, workflowId, events: history.events?.length ?? 0 }));
  return 0;
}

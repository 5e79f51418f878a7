/**
 * `durable-compaction replay FILE`: replays a downloaded workflow history (the Temporal UI's download, or
 * `temporal workflow show --workflow-id ID --output json`) against this checkout's workflow code, to check that a
 * change keeps running conversations replaying before it is deployed.
 */
import { fork } from 'node:child_process';
import { historyFromProtoJson } from './history-json';
import { historyShapeProblem } from './history-shape';
import { CliUsageError, parseFlags, readJsonFile, type CliIO } from './io';
import type { ReplayVerdict } from './replay-process';

export const replayHelp = `usage: durable-compaction replay [--timeout-ms N] FILE
Replays a workflow history in JSON (Temporal UI download, or 'temporal workflow show --output json') with this
checkout's workflow code. Prints {"ok": true, "workflowId", "events"} when it replays, or {"ok": false, "kind",
"error"} and exits 1 when the code no longer matches the history ("nondeterminism"), the replay fails ("failure") or
takes longer than --timeout-ms (default 120000: "timeout"). Exit 2 when FILE is not a readable JSON history.`;

/** How long a replay may take by default, ms (the longest recorded history replays in a few seconds). */
export const DEFAULT_REPLAY_TIMEOUT_MS = 120_000;

/** @returns the history in FILE. @throws CliUsageError when it cannot be read or is not a history. */
function readHistory(file: string): ReturnType<typeof historyFromProtoJson> {
  const json = readJsonFile(file);
  const events = (json as { events?: unknown } | null)?.events;
  if (!Array.isArray(events) || events.length === 0)
    throw new CliUsageError(`${file} is not a workflow history (no "events" array)`);
  let history;
  try {
    history = historyFromProtoJson(json);
  } catch (err) {
    throw new CliUsageError(`${file} is not a workflow history: ${(err as Error).message}`);
  }
  const problem = historyShapeProblem(history);
  if (problem) throw new CliUsageError(`${file} is not a workflow history: ${problem}`);
  return history;
}

/**
 * Runs the replayer in its own process (src/cli/replay-process.ts) and kills it once it has answered or `timeoutMs`
 * have passed: a panic in the SDK's native core would otherwise keep this process from ever exiting.
 * @returns the verdict.
 */
function replayApart(file: string, workflowId: string, timeoutMs: number): Promise<ReplayVerdict> {
  // Run from source (bin/durable-compaction, the tests), the child needs the same TypeScript loader.
  const entry = require.resolve('./replay-process');
  const execArgv = entry.endsWith('.ts') ? ['--require', require.resolve('tsx/cjs')] : [];
  const child = fork(entry, [file, workflowId], { execArgv, stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    if (stderr.length < 4096) stderr += chunk.toString();
  });
  return new Promise<ReplayVerdict>((resolve) => {
    const settle = (verdict: ReplayVerdict): void => {
      clearTimeout(timer);
      child.removeAllListeners();
      child.kill('SIGKILL');
      resolve(verdict);
    };
    const timer = setTimeout(
      () => settle({ ok: false, kind: 'timeout', error: `the replay did not finish within ${timeoutMs} ms` }),
      timeoutMs
    );
    child.once('message', (verdict: ReplayVerdict) => settle(verdict));
    child.once('exit', (code, signal) => {
      const first = stderr.split('\n').find((l) => l.trim() !== '') ?? '';
      settle({ ok: false, kind: 'failure', error: `the replay process ended (${signal ?? code}) ${first}`.trim() });
    });
  });
}

/**
 * Runs `replay`.
 * @returns 0 when the history replays, 1 when it does not (or not within the timeout); rejects with CliUsageError
 *   (exit 2) on bad input.
 */
export async function runReplay(args: string[], io: CliIO): Promise<number> {
  const { flags, positional } = parseFlags(args, ['timeout-ms']);
  if (positional.length !== 1) throw new CliUsageError('expected one FILE (a workflow history in JSON)');
  const timeoutText = flags.get('timeout-ms') ?? String(DEFAULT_REPLAY_TIMEOUT_MS);
  const timeoutMs = Number(timeoutText);
  if (!/^\d+$/.test(timeoutText) || !Number.isSafeInteger(timeoutMs) || timeoutMs <= 0)
    throw new CliUsageError(`--timeout-ms must be a positive integer, got '${timeoutText}'`);
  const file = positional[0]!;
  const history = readHistory(file);
  const started = history.events?.[0]?.workflowExecutionStartedEventAttributes;
  const workflowId = started?.workflowId || file;
  const verdict = await replayApart(file, workflowId, timeoutMs);
  if (verdict.ok) {
    io.stdout(JSON.stringify({ ok: true, workflowId, events: verdict.events }));
    return 0;
  }
  io.stdout(JSON.stringify({ ok: false, workflowId, kind: verdict.kind, error: verdict.error }));
  return 1;
}

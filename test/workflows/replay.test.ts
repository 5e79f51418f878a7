import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { temporal } from '@temporalio/proto';
import { bundleWorkflowCode, Worker, type ReplayResult } from '@temporalio/worker';
import { DeterminismViolationError } from '@temporalio/workflow';
import { conversationSinks } from '../../src/metrics/sinks';
import { workflowBundle } from '../support/temporal';

const dir = join(__dirname, '..', 'histories');

/**
 * The workflow id a history ran under (the workflow checks its start argument against it): `conversation-` + the
 * start argument's conversationId. A history file does not hold the id itself.
 */
function recordedWorkflowId(history: temporal.api.history.v1.IHistory): string | undefined {
  const payload = history.events?.[0]?.workflowExecutionStartedEventAttributes?.input?.payloads?.[0];
  if (!payload?.data) return undefined;
  const input = JSON.parse(Buffer.from(payload.data).toString('utf8')) as { conversationId?: unknown };
  return typeof input.conversationId === 'string' ? `conversation-${input.conversationId}` : undefined;
}

describe('replaying recorded histories (determinism across code changes)', function () {
  this.timeout(120_000);
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.bin'))
    .sort();

  it('has recorded histories to replay', () => {
    assert.ok(files.length >= 4, `expected recorded histories in ${dir}`);
  });

  it('replays every recorded history with the current workflow code', async () => {
    const histories = files.map((file) => {
      const history = temporal.api.history.v1.History.decode(readFileSync(join(dir, file)));
      return { workflowId: recordedWorkflowId(history) ?? file, history };
    });
    const failures: string[] = [];
    let replayed = 0;
    for await (const result of Worker.runReplayHistories(
      { workflowBundle: await workflowBundle(), sinks: conversationSinks() },
      histories
    )) {
      replayed++;
      if (result.error) failures.push(`${result.workflowId}: ${result.error.message}`);
    }
    assert.equal(replayed, files.length);
    assert.deepEqual(failures, []);
  });

  const sinks = conversationSinks();
  const quiet = { trace() {}, debug() {}, info() {}, warn() {}, error: console.error, log() {} };

  /** Replays the first recorded fold history with the workflows of `entry`. @returns the replay's result. */
  async function replayFoldHistoryWith(entry: string): Promise<ReplayResult> {
    const file = files.find((f) => f.includes('fold'))!;
    const history = temporal.api.history.v1.History.decode(readFileSync(join(dir, file)));
    const workflowId = recordedWorkflowId(history) ?? file;
    const results: ReplayResult[] = [];
    for await (const r of Worker.runReplayHistories(
      { workflowBundle: await bundleWorkflowCode({ workflowsPath: require.resolve(entry), logger: quiet }), sinks },
      [{ workflowId, history }]
    )) {
      results.push(r);
    }
    assert.equal(results.length, 1);
    return results[0]!;
  }

  it('notices a change of workflow logic made without patched(): non-determinism', async () => {
    const result = await replayFoldHistoryWith('../support/drift/unpatched');
    assert.ok(result.error, 'replay of changed workflow logic reports an error');
    assert.ok(
      result.error instanceof DeterminismViolationError,
      `expected a determinism violation, got ${result.error.name}: ${result.error.message}`
    );
  });

  it('replays the same change of logic when it is gated by patched()', async () => {
    const result = await replayFoldHistoryWith('../support/drift/patched');
    assert.equal(result.error, undefined, result.error?.message);
  });
});

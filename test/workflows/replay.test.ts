import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { temporal } from '@temporalio/proto';
import { Worker } from '@temporalio/worker';
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

  it('notices a workflow that no longer matches its history', async () => {
    const file = files.find((f) => f.includes('fold'))!;
    const history = temporal.api.history.v1.History.decode(readFileSync(join(dir, file)));
    // Rename the workflow type in the history: replay must fail rather than silently pass.
    const started = history.events[0]!.workflowExecutionStartedEventAttributes!;
    started.workflowType = { name: 'noSuchWorkflow' };
    const results = [];
    for await (const r of Worker.runReplayHistories(
      { workflowBundle: await workflowBundle(), sinks: conversationSinks() },
      [{ workflowId: file, history }]
    )) {
      results.push(r);
    }
    assert.ok(results[0]?.error, 'replay of a mismatched history reports an error');
  });
});

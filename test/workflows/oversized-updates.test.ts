// The production worker (src/worker.ts) loads the workflow interceptor that leaves an update over one update's bound
// unprocessed: the server rejects it (UnprocessedUpdate) and the conversation keeps answering. Without the
// interceptor the task completion carrying any answer to it is over Temporal's 2 MiB limit and every task fails.
import { strict as assert } from 'node:assert';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { MAX_UPDATE_INPUT_BYTES } from '../../src/contract/update-size';
import { inputBytes } from '../../src/workflows/oversized-updates';
import { conversationClient, uniqueConversationId } from '../support/conversation';
import { workflowTaskFailures } from '../support/history';
import { startNpmWorker } from '../support/npm-worker';
import { sharedTestEnv } from '../support/temporal';

const user = (text: string) => ({ role: 'user', content: text });

describe('updates over the bound of one update (src/workflows/oversized-updates.ts)', function () {
  this.timeout(180_000);

  it('measures the input payloads: data and metadata bytes', () => {
    const bytes = (n: number) => new Uint8Array(n);
    assert.equal(inputBytes(undefined), 0);
    assert.equal(inputBytes([{ data: bytes(10), metadata: { encoding: bytes(9) } }, { data: bytes(5) }]), 24);
  });

  it('the production worker leaves a 3 MB prepare and configure unprocessed; the conversation keeps answering', async () => {
    const env = await sharedTestEnv();
    const dir = mkdtempSync(join(tmpdir(), 'dc-oversized-'));
    const taskQueue = `oversized-${process.pid}-${Date.now()}`;
    const { child: worker } = await startNpmWorker(
      { TEMPORAL_ADDRESS: env.address, TEMPORAL_TASK_QUEUE: taskQueue, DATA_DIR: dir },
      90_000
    );
    try {
      const conv = conversationClient(env.client, taskQueue, uniqueConversationId('big'));
      await conv.prepare([user('hello')]);
      const handle = env.client.workflow.getHandle(conv.workflowId);
      const huge = 'x'.repeat(MAX_UPDATE_INPUT_BYTES + 1_000_000);
      for (const [update, arg] of [
        ['prepare', { messages: [user(huge)] }],
        ['configure', { summarizer: { instructions: huge } }],
      ] as const) {
        // Answered at once; a wedged conversation would not answer within 30 s.
        const err = await env.client.connection
          .withDeadline(Date.now() + 30_000, () => handle.executeUpdate(update, { args: [arg] }))
          .catch((e: unknown) => e);
        assert.ok(err instanceof WorkflowUpdateFailedError, `${update}: ${String(err)}`);
        assert.ok(err.cause instanceof ApplicationFailure);
        assert.equal(err.cause.type, 'UnprocessedUpdate', `${update}: ${err.cause.message}`);
      }
      const next = await conv.prepare([user('still there?')]);
      assert.equal(next.messages.length, 2, 'the conversation answers, with nothing of the refused updates stored');
      assert.equal(await workflowTaskFailures(handle), 0, 'no workflow task failed');
    } finally {
      worker.kill('SIGTERM');
      await new Promise((ok) => worker.once('exit', ok));
    }
  });
});

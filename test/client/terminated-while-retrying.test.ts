// A call retried through a server outage must not start a conversation an operator terminated meanwhile: the retry
// goes to the running conversation only (issue 22, item 1: the retry started the terminated conversation again
// with the same update).
import { strict as assert } from 'node:assert';
import { Client, Connection } from '@temporalio/client';
import { ConversationClient } from '../../src/client/conversation-client';
import { ConversationRunEnded } from '../../src/client/errors';
import { startProxy } from '../support/tcp-proxy';
import { uniqueConversationId, withConversationWorker } from '../support/conversation';

const user = (text: string) => ({ role: 'user', content: text });

describe('a call retried while the conversation is terminated', function () {
  this.timeout(120_000);

  it('is not started again in a new run: ConversationRunEnded, and the terminated run stays the latest', async () => {
    await withConversationWorker(async ({ env, taskQueue }) => {
      const proxy = await startProxy(new URL(`http://${env.address}`));
      const connection = await Connection.connect({ address: new URL(proxy.url).host });
      try {
        const client = new Client({ connection, namespace: env.namespace ?? 'default' });
        const id = uniqueConversationId('terminated-retry');
        const conv = new ConversationClient({ client, conversationId: id, taskQueue, retryDeadlineMs: 30_000 });
        await conv.prepare([user('one')]);
        const direct = env.client.workflow.getHandle(conv.workflowId);
        const { runId } = await direct.describe();

        proxy.cut(); // the server is unreachable for the client: its call is retried
        const call = conv.prepare([user('two')]).then(
          () => 'stored',
          (err: unknown) => err
        );
        await new Promise((r) => setTimeout(r, 1500));
        await direct.terminate('an operator ends the conversation');
        proxy.restore();

        const outcome = await call;
        assert.ok(
          outcome instanceof ConversationRunEnded,
          `the retry was refused: ${String(outcome)} ${String((outcome as { cause?: { cause?: unknown } }).cause?.cause)}`
        );
        assert.match(outcome.message, /run ended \(TERMINATED\) while this call was being retried/);
        const latest = await direct.describe();
        assert.equal(latest.runId, runId, 'no new run was started');
        assert.equal(latest.status.name, 'TERMINATED');
      } finally {
        await connection.close();
        await proxy.close();
      }
    });
  });
});

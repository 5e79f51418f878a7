import { strict as assert } from 'node:assert';
import { WorkflowUpdateFailedError } from '@temporalio/client';
import { PostgresArchive } from '../../src/archive/postgres-archive';
import { conversationWorkflowId } from '../../src/contract/definitions';
import { uniqueConversationId, withConversationWorker } from '../support/conversation';
import { freshDatabase } from '../support/postgres';
import { startProxy } from '../support/tcp-proxy';

const system = { role: 'system', content: 'You are a careful assistant.' };
const user = (text: string) => ({ role: 'user', content: text });

describe('a conversation whose PostgreSQL archive becomes unreachable', function () {
  this.timeout(120_000);

  it('waits through a short outage, and survives a long one with its live context intact', async () => {
    const proxy = await startProxy(new URL(await freshDatabase('outage_workflow')));
    // Quick driver retries, so the long outage below reaches Temporal's own retries of the activity in seconds.
    const archive = await PostgresArchive.open({
      url: proxy.url,
      retry: { attempts: 4, initialDelayMs: 100, maxDelayMs: 400 },
    });
    try {
      await withConversationWorker(
        async ({ open }) => {
          const id = uniqueConversationId('outage');
          const conv = open(id);
          await conv.prepare([system, user('before the outage')]);

          // Short: the driver's back-off rides it out and the turn just takes longer.
          proxy.cut();
          setTimeout(() => proxy.restore(), 1000);
          const during = await conv.prepare([user('during a short outage')]);
          assert.deepEqual(during.messages, [system, user('before the outage'), user('during a short outage')]);

          // Long: every retry fails, the update fails as a whole, and nothing in the conversation changed.
          proxy.cut();
          await assert.rejects(conv.prepare([user('during a long outage')]), WorkflowUpdateFailedError);
          const state = await conv.state();
          assert.equal(state.archived, 3);
          assert.equal(state.messages, 3);
          assert.deepEqual((await conv.context()).messages, during.messages);

          // Once the database is back, the same message goes through.
          proxy.restore();
          const after = await conv.prepare([user('during a long outage')]);
          assert.deepEqual(after.messages, [...during.messages, user('during a long outage')]);
          assert.deepEqual(
            (await archive.readAll(conversationWorkflowId(id))).map((m) => m.message),
            after.messages
          );
        },
        { archive }
      );
    } finally {
      await archive.close();
      await proxy.close();
    }
  });
});

import { strict as assert } from 'node:assert';
import { WorkflowUpdateStage } from '@temporalio/client';
import { ConversationUpdateError } from '../../src/client/errors';
import { waitForFoldUpdate } from '../../src/contract/definitions';
import { startOpenAIServer } from '../support/openai-server';
import { TEST_CHAT_PROFILE, testProfiles } from '../support/profiles';
import { uniqueConversationId, withConversationWorker } from '../support/conversation';
import { workflowTaskFailures } from '../support/history';

const user = (i: number) => ({
  role: 'user',
  content:
    `Request ${i}: ` + `please check the shipping status of order ${1000 + i} and tell me when it arrives. `.repeat(18),
});

describe('a closed conversation', function () {
  this.timeout(180_000);

  it('refuses every call with ConversationClosed while its last handler finishes, and changes nothing', async () => {
    // A summary that takes 20 s keeps a fold in flight, so a `waitForFold` keeps the closed workflow running.
    const server = await startOpenAIServer({ lifetimeMs: 180_000, fallback: () => ({ kind: 'slow', ms: 20_000 }) });
    try {
      await withConversationWorker(
        async ({ open, env }) => {
          const conv = open(uniqueConversationId('closed'), {
            budget: 4000,
            summarizer: { profile: TEST_CHAT_PROFILE },
          });
          let folding = false;
          for (let i = 0; i < 40 && !folding; i++) {
            folding = (await conv.prepare([user(i)])).folding !== undefined;
            await conv.record({ role: 'assistant', content: `Order ${1000 + i} ships tomorrow.` });
          }
          assert.ok(folding, 'a fold is in flight');
          const before = await conv.context();
          const handle = env.client.workflow.getHandle(conv.workflowId);
          // Accepted before `close`, so the workflow has a handler in flight and cannot complete yet.
          const waiting = await handle.startUpdate(waitForFoldUpdate, {
            args: [{ timeoutMs: 60_000 }],
            waitForStage: WorkflowUpdateStage.ACCEPTED,
          });
          await conv.close();
          const closed = async (call: Promise<unknown>, what: string): Promise<void> => {
            await assert.rejects(call, (e: unknown) => {
              assert.ok(e instanceof ConversationUpdateError, `${what}: ${String(e)}`);
              assert.equal(e.type, 'ConversationClosed', `${what}: ${e.message}`);
              assert.match(e.message, /the conversation is closed/);
              return true;
            });
          };
          assert.equal((await handle.describe()).status.name, 'RUNNING', 'still finishing its last handler');
          await closed(conv.record({ role: 'user', content: 'one more' }), 'append');
          await closed(conv.configure({ budget: 5000 }), 'configure');
          await closed(conv.rewind(), 'rewind');
          await closed(conv.clear(), 'clear');
          assert.deepEqual((await conv.context()).messages, before.messages, 'nothing changed');
          await waiting.result();
          assert.equal(await workflowTaskFailures(handle), 0);
        },
        { profiles: testProfiles(server.baseURL), summarize: { env: { DC_TEST_KEY: 'sk-closed' } } }
      );
    } finally {
      await server.close();
    }
  });
});

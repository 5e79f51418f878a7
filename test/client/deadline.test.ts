// retryDeadlineMs bounds a call even when the server accepted it and no worker completes it soon: the update's
// outcome is polled within the deadline too, so the caller gets ConversationUnavailableError (with `stored`) on time
// instead of waiting for as long as the work takes.
import { strict as assert } from 'node:assert';
import { ConversationClient } from '../../src/client/conversation-client';
import { ConversationUnavailableError } from '../../src/client/errors';
import { startOpenAIServer } from '../support/openai-server';
import { TEST_CHAT_PROFILE, testProfiles } from '../support/profiles';
import { uniqueConversationId, withConversationWorker } from '../support/conversation';

const user = (i: number) => ({
  role: 'user',
  content: `Request ${i}: ` + `please check the shipping status of order ${1000 + i} and report back. `.repeat(18),
});

describe('the client retry deadline', function () {
  this.timeout(120_000);

  it('ends a call the workflow accepted but has not completed at retryDeadlineMs, saying it was stored', async () => {
    // Every summary takes 20 s: a blocking fold keeps its prepare open that long.
    const server = await startOpenAIServer({ lifetimeMs: 120_000, fallback: () => ({ kind: 'slow', ms: 20_000 }) });
    try {
      await withConversationWorker(
        async ({ env, taskQueue }) => {
          const id = uniqueConversationId('deadline');
          const conv = new ConversationClient({
            client: env.client,
            conversationId: id,
            taskQueue,
            retryDeadlineMs: 3000,
            settings: { budget: 4000, foldMode: 'blocking', summarizer: { profile: TEST_CHAT_PROFILE } },
          });
          let caught: unknown;
          let elapsed = 0;
          let sent = 0;
          for (let i = 0; i < 30 && caught === undefined; i++) {
            const t0 = performance.now();
            try {
              await conv.prepare([user(i)]);
              sent++;
              await conv.record({ role: 'assistant', content: `Order ${1000 + i} ships tomorrow.` });
              sent++;
            } catch (err) {
              caught = err;
              elapsed = performance.now() - t0;
            }
          }
          assert.ok(caught instanceof ConversationUnavailableError, `a call ended at the deadline: ${String(caught)}`);
          assert.ok(
            elapsed < 12_000,
            `it ended near the 3 s deadline, not after the 20 s fold (${Math.round(elapsed)} ms)`
          );
          assert.equal(caught.stored, true, 'the append was stored before the fold began');
          assert.equal(server.requests.length, 1, 'the fold was under way');
          // Once the fold is done the conversation answers, with the message of the timed-out call stored once.
          const patient = new ConversationClient({ client: env.client, conversationId: id, taskQueue });
          const after = await patient.prepare([]);
          const texts = after.messages.map((m) => JSON.stringify(m));
          assert.equal(texts.filter((t) => t.includes(`order ${1000 + sent / 2}`)).length, 1);
        },
        { profiles: testProfiles(server.baseURL), summarize: { env: { DC_TEST_KEY: 'sk-deadline' } } }
      );
    } finally {
      await server.close();
    }
  });
});

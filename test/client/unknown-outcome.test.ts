// A call whose outcome the client could not learn ends with ConversationUnavailableError, stored 'unknown': here the
// worker stored the append and then died (SIGKILL) while the call waited on a blocking fold, and no worker was there
// to answer before the deadline, not even the query that asks. Making the same call again must then store its
// messages once, not twice. While no worker answers, another call fails with ConversationUnavailableError
// (stored false, it sent nothing), never a raw service error.
import { strict as assert } from 'node:assert';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConversationClient } from '../../src/client/conversation-client';
import { ConversationUnavailableError } from '../../src/client/errors';
import { startOpenAIServer } from '../support/openai-server';
import { sharedTestEnv } from '../support/temporal';
import { uniqueConversationId } from '../support/conversation';
import { killWorker, startWorker, waitFor } from '../support/crash';
import { TEST_CHAT_PROFILE } from '../support/profiles';

const turn = (i: number) => ({
  role: 'user',
  content: `Request ${i}: ` + `please check the shipping status of order ${1000 + i} and report back. `.repeat(18),
});

describe('a call whose outcome is unknown (the worker died after storing it)', function () {
  this.timeout(180_000);

  it('made again, is stored once; another call meanwhile fails cleanly', async () => {
    const testEnv = await sharedTestEnv();
    const server = await startOpenAIServer({ lifetimeMs: 180_000 });
    const taskQueue = `unknown-outcome-${process.pid}-${Date.now()}`;
    const workerEnv = {
      TEMPORAL_ADDRESS: testEnv.address,
      TASK_QUEUE: taskQueue,
      ARCHIVE_DRIVER: 'sqlite',
      ARCHIVE_PATH: join(mkdtempSync(join(tmpdir(), 'dc-unknown-')), 'archive.sqlite'),
      DC_TEST_KEY: 'sk-unknown',
      SUMMARIZER_BASE_URL: server.baseURL,
    };
    let worker = await startWorker(workerEnv);
    try {
      const conv = new ConversationClient({
        client: testEnv.client,
        conversationId: uniqueConversationId('unknown'),
        taskQueue,
        retryDeadlineMs: 4000,
        settings: { foldMode: 'blocking', budget: 4000, summarizer: { profile: TEST_CHAT_PROFILE } },
      });
      server.script({ kind: 'slow', ms: 120_000 }, { kind: 'text', text: 'Summary: orders checked; ids kept.' });
      let i = 0;
      let doubtful: unknown = undefined;
      for (; i < 30; i++) {
        const call = conv.prepare([turn(i)]);
        const outcome = await Promise.race([
          call.then(() => 'returned' as const),
          waitFor('a summary request', () => server.requests.length >= 1, 60_000).then(() => 'folding' as const),
        ]);
        if (outcome === 'folding') {
          await killWorker(worker); // the append is stored, the fold under way: nobody answers now
          doubtful = await call.catch((e: unknown) => e);
          break;
        }
        await conv.record({ role: 'assistant', content: `Order ${1000 + i} ships tomorrow.` });
      }
      assert.ok(
        doubtful instanceof ConversationUnavailableError,
        `the call ended at its deadline: ${String(doubtful)}`
      );
      assert.equal(doubtful.stored, 'unknown');
      await assert.rejects(
        () => conv.record({ role: 'assistant', content: 'another call' }),
        (e: unknown) => e instanceof ConversationUnavailableError && e.stored === false
      );

      worker = await startWorker(workerEnv);
      // Made again as documented, until it is not unavailable (a fresh worker on a busy machine may take a while).
      let again: Awaited<ReturnType<typeof conv.prepare>> | undefined;
      for (let tries = 0; again === undefined && tries < 5; tries++) {
        again = await conv.prepare([turn(i)]).catch((e: unknown) => {
          if (e instanceof ConversationUnavailableError && e.stored !== true) return undefined;
          throw e;
        });
      }
      assert.ok(again, 'the call made again was answered');
      const copies = again.messages.filter((m) => JSON.stringify(m).includes(`order ${1000 + i} and`)).length;
      const state = await conv.state();
      assert.equal(state.archived, 2 * i + 1, 'every message archived once: the repeated call stored nothing more');
      assert.ok(copies <= 1, 'the message is not twice in the context');
    } finally {
      await killWorker(worker);
      await server.close();
    }
  });
});

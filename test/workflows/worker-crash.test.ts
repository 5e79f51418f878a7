import { strict as assert } from 'node:assert';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { corpusConversation } from '../support/corpus';
import { startOpenAIServer } from '../support/openai-server';
import { sharedTestEnv } from '../support/temporal';
import { conversationClient, uniqueConversationId } from '../support/conversation';
import { assertFoldedOnce, killWorker, startWorker, waitFor } from '../support/crash';
import { TEST_CHAT_PROFILE } from '../support/profiles';

describe('a worker killed with SIGKILL in the middle of a blocking fold', function () {
  this.timeout(180_000);

  it('is replaced, and the fold completes exactly once with every message still there', async () => {
    const testEnv = await sharedTestEnv();
    const server = await startOpenAIServer();
    const archivePath = join(mkdtempSync(join(tmpdir(), 'dc-crash-')), 'archive.sqlite');
    const taskQueue = `crash-${process.pid}-${Date.now()}`;
    const workerEnv = {
      TEMPORAL_ADDRESS: testEnv.address,
      TASK_QUEUE: taskQueue,
      ARCHIVE_DRIVER: 'sqlite',
      ARCHIVE_PATH: archivePath,
      DC_TEST_KEY: 'sk-crash',
      SUMMARIZER_BASE_URL: server.baseURL,
    };
    let worker = await startWorker(workerEnv);
    try {
      const id = uniqueConversationId('crash');
      const conv = conversationClient(testEnv.client, taskQueue, id, {
        settings: {
          // The blocking path: the prepare that reaches the trigger waits on the fold (background-fold.test.ts has
          // the same crash during a background fold).
          foldMode: 'blocking',
          budget: 6000,
          summarizer: { profile: TEST_CHAT_PROFILE },
        },
        limits: { summarizeHeartbeatTimeoutMs: 4000, summarizeHeartbeatIntervalMs: 1000 },
      });
      // The first summary request hangs (the worker dies under it); the retry on the new worker answers.
      server.script(
        { kind: 'slow', ms: 120_000 },
        { kind: 'text', text: 'Summary: the customer wants to change a flight; ids kept.' }
      );
      const { messages } = corpusConversation('tau-bench-gpt4o-airline-task2');
      let sent = 0;
      let folding: Promise<unknown> | undefined;
      for (const m of messages) {
        const p = conv.prepare([m]);
        sent++;
        // Either this prepare returns (no fold yet), or the summary request shows up while it waits on the fold.
        const outcome = await Promise.race([
          p.then(() => 'returned' as const),
          waitFor('a summary request', () => server.requests.length >= 1, 60_000).then(() => 'folding' as const),
        ]);
        if (outcome === 'folding') {
          folding = p;
          break;
        }
      }
      assert.ok(folding, 'the conversation reached the trigger');
      await killWorker(worker);
      worker = await startWorker(workerEnv);
      const prepared = (await folding) as { fold?: { ok: boolean; number: number } };
      assert.equal(prepared.fold?.ok, true, 'the fold completed after the crash');
      await assertFoldedOnce(conv, server.requests.length, archivePath, id, messages.slice(0, sent));
      // And it keeps answering.
      const next = await conv.prepare([messages[sent]]);
      assert.ok(next.messages.length > 0);
      assert.equal((await conv.state()).archived, sent + 1);
    } finally {
      worker.kill('SIGKILL');
      await server.close();
    }
  });
});

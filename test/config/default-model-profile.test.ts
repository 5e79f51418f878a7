// Issue #22 item 6: with the worker's default profile set the documented way to a model (SUMMARIZER_MODE=chat,
// OPENAI_BASE_URL, OPENAI_API_KEY), a conversation naming no profile folds in the background: prepare does not
// wait for the model.
import { strict as assert } from 'node:assert';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { conversationClient, uniqueConversationId } from '../support/conversation';
import { startNpmWorker } from '../support/npm-worker';
import { startOpenAIServer } from '../support/openai-server';
import { sharedTestEnv } from '../support/temporal';

/** How long the model takes to write a summary. */
const MODEL_MS = 8000;

describe('config: a model as the default summarizer profile', function () {
  this.timeout(240_000);

  it('a conversation naming no profile folds in the background; no prepare waits for the model', async () => {
    const env = await sharedTestEnv();
    const server = await startOpenAIServer({
      lifetimeMs: 220_000,
      fallback: () => ({
        kind: 'slow',
        ms: MODEL_MS,
        text: 'Order 4711 ships Tuesday; the customer asked about invoices.',
      }),
    });
    const dir = mkdtempSync(join(tmpdir(), 'dc-default-model-'));
    const file = join(dir, 'temporal.yaml');
    writeFileSync(file, '');
    const taskQueue = `default-model-${process.pid}`;
    const { child: worker } = await startNpmWorker(
      {
        DC_CONFIG: file,
        TEMPORAL_ADDRESS: env.address,
        TEMPORAL_TASK_QUEUE: taskQueue,
        DATA_DIR: dir,
        SUMMARIZER_MODE: 'chat',
        OPENAI_BASE_URL: server.baseURL,
        OPENAI_API_KEY: 'sk-default-model',
      },
      90_000
    );
    try {
      const conv = conversationClient(env.client, taskQueue, uniqueConversationId('default-model'), {
        settings: { budget: 2000 },
      });
      // Each prepare's duration and whether it answered with a fold in flight.
      const turns: { ms: number; folding: boolean }[] = [];
      for (let i = 0; i < 40 && turns.filter((t) => t.folding).length < 2; i++) {
        const started = Date.now();
        const turn = await conv.prepare([
          { role: 'user', content: `turn ${i}: ${'where is my parcel now '.repeat(15)}` },
        ]);
        turns.push({ ms: Date.now() - started, folding: turn.folding !== undefined });
        await conv.record({ role: 'assistant', content: `answer ${i}: it left the depot this morning.` });
      }
      const first = turns.findIndex((t) => t.folding);
      assert.ok(
        first >= 0,
        `a fold ran in the background (no prepare answered with one in flight): ${JSON.stringify(turns)}`
      );
      assert.ok(server.requests.length >= 1, 'the model was asked for the summary');
      // The prepare that started the fold answered at once (inline, it waited the model's 8 s).
      assert.ok(
        turns[first]!.ms < MODEL_MS / 2,
        `the prepare starting the fold took ${turns[first]!.ms} ms: ${JSON.stringify(turns)}`
      );
    } finally {
      worker.kill('SIGTERM');
      await new Promise((ok) => worker.once('exit', ok));
      await server.close();
    }
  });
});

/**
 * Encryption at rest end to end: the production worker process, with payload and archive encryption turned on by its
 * configuration, folds a conversation through a model summarizer; its SQLite archive (file and journal) then holds
 * none of the conversation's text or summaries, while an archive opened with the same keys reads and searches it all.
 */
import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@temporalio/client';
import { SqliteArchive } from '../../src/archive/sqlite-archive';
import { ConversationClient } from '../../src/client/conversation-client';
import { dataConverterFromConfig } from '../../src/codec/data-converter';
import { searchWords } from '../../src/core/recall/search-words';
import { keyList, testCipher } from '../support/archive-keys';
import { testCodecSettings } from '../support/codec';
import { uniqueConversationId } from '../support/conversation';
import { corpusConversation } from '../support/corpus';
import { startOpenAIServer } from '../support/openai-server';
import { chatWorkerConfig, startProductionWorker } from '../support/production-worker';
import { sharedTestEnv } from '../support/temporal';

describe('a worker with archive encryption', function () {
  this.timeout(240_000);

  it('folds a conversation and leaves no message or summary text in its archive at rest', async () => {
    const testEnv = await sharedTestEnv();
    const canary = `canary${randomBytes(6).toString('hex')}`;
    const summaryCanary = `summarycanary${randomBytes(6).toString('hex')}`;
    const server = await startOpenAIServer({ lifetimeMs: 600_000 });
    server.script(...Array.from({ length: 5 }, () => ({ kind: 'text' as const, text: `Summary: ${summaryCanary}` })));
    const dir = mkdtempSync(join(tmpdir(), 'dc-archive-encrypted-'));
    const taskQueue = `archive-encrypted-${process.pid}-${Date.now()}`;
    const keys = keyList('k1');
    const worker = await startProductionWorker(
      dir,
      chatWorkerConfig({ address: testEnv.address, taskQueue, dir, baseURL: server.baseURL, apiKeyEnv: 'DC_TEST_KEY' }),
      // Both kinds of encryption from the environment (the codec's keys serve the archive too).
      {
        DC_TEST_KEY: 'sk-archive-encrypted',
        DC_CODEC_ENCRYPT: 'true',
        DC_CODEC_KEY_ID: 'k1',
        DC_CODEC_KEYS: keys,
        ARCHIVE_ENCRYPT: 'true',
        LOG_LEVEL: 'debug',
      }
    );
    const dataConverter = dataConverterFromConfig({ codec: testCodecSettings }, { DC_CODEC_KEYS: keys });
    const client = new Client({ connection: testEnv.connection, namespace: 'default', dataConverter });
    const conv = new ConversationClient({
      client,
      conversationId: uniqueConversationId('archive-encrypted'),
      taskQueue,
      settings: { budget: 2500 },
    });
    const messages = corpusConversation('tau2-bench-gpt41-retail-task38').messages;
    const sample = (messages.find((m) => (m as { role: string }).role === 'user') as { content: string }).content;
    let appended = 1;
    try {
      await conv.prepare([{ role: 'user', content: `remember ${canary}` }]);
      for (const m of messages) {
        const p = await conv.prepare([m]);
        appended++;
        if (p.folding) await conv.waitForFold({ timeoutMs: 60_000 });
        if ((await conv.folds()).some((f) => f.ok && f.responseId !== null)) break;
      }
      assert.ok(server.requests.length > 0, 'a fold went through the model');
    } finally {
      await worker.stop();
      await server.close();
    }
    const path = join(dir, 'archive.sqlite');
    const bytes = [path, `${path}-wal`].filter(existsSync).map((f) => readFileSync(f));
    const traces = [canary, summaryCanary, sample.slice(0, 40), searchWords(sample).slice(0, 40)];
    for (const t of traces)
      assert.ok(!bytes.some((b) => b.includes(t)), `the archive at rest holds ${JSON.stringify(t.slice(0, 30))}`);
    for (const k of [keys, keys.split(':')[1]!]) assert.ok(!worker.output().includes(k), 'no key in the worker logs');

    // The same archive opened with the keys has everything.
    const archive = SqliteArchive.open({ path, readOnly: true, cipher: testCipher('k1') });
    try {
      const stored = await archive.readAll(conv.workflowId);
      assert.equal(stored.length, appended);
      assert.deepEqual(stored[0]!.message, { role: 'user', content: `remember ${canary}` });
      assert.deepEqual(
        await archive.search(conv.workflowId, { terms: [canary], firstSeq: 0, lastSeq: 1e9, limit: 5 }),
        [0]
      );
      assert.ok((await archive.summaries(conv.workflowId)).some((s) => s.text.includes(summaryCanary)));
      assert.ok((await archive.folds(conv.workflowId)).length > 0);
    } finally {
      await archive.close();
    }
  });
});

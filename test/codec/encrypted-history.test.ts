/**
 * Payload encryption end to end: a worker and a client built by the shared data-converter factory with encryption on
 * drive a conversation with folds through a model summarizer; while the worker works, the raw history (read without
 * the codec) holds no message text, summary text, failure message, key or codec setting, and every payload is
 * ciphertext. The real Temporal CLI decodes the same history through `durable-compaction codec-server`.
 */
import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { bundleWorkflowCode } from '@temporalio/worker';
import { createActivities } from '../../src/activities';
import { SqliteArchive } from '../../src/archive/sqlite-archive';
import { ConversationClient } from '../../src/client/conversation-client';
import { dataConverterFromConfig, FAILURE_CONVERTER_PATH } from '../../src/codec/data-converter';
import { createConversationWorker } from '../../src/server/conversation-worker';
import { corpusConversation } from '../support/corpus';
import { startCodecServerProcess, testCodecSettings } from '../support/codec';
import { uniqueConversationId, withConversationWorker } from '../support/conversation';
import { startOpenAIServer } from '../support/openai-server';
import { chatWorkerConfig, startProductionWorker } from '../support/production-worker';
import { TEST_CHAT_PROFILE, testProfiles } from '../support/profiles';
import { sharedTestEnv, temporalCliPath } from '../support/temporal';

const run = promisify(execFile);
const rawKey = randomBytes(32);
const keys = `k1:${rawKey.toString('base64')}`;
const canary = `CANARY-MESSAGE-${randomBytes(6).toString('hex')}`;
const summaryCanary = `CANARY-SUMMARY-${randomBytes(6).toString('hex')}`;
const profileCanary = `canary-profile-${randomBytes(4).toString('hex')}`;

/** The raw history, as the server stores it, read by a client without the codec. */
async function rawHistory(client: Client, workflowId: string): Promise<string> {
  const history = await client.workflow.getHandle(workflowId).fetchHistory();
  return Buffer.from(temporal.api.history.v1.History.encode(history).finish()).toString('latin1');
}

const count = (text: string, what: string): number => text.split(what).length - 1;
const forms = (text: string): string[] => [text, Buffer.from(text).toString('base64')];

describe('encrypted payloads (AES-256-GCM codec)', function () {
  this.timeout(240_000);

  it('the server stores ciphertext only while the worker works; the codec server decodes it for the CLI', async () => {
    const testEnv = await sharedTestEnv();
    const server = await startOpenAIServer({ lifetimeMs: 600_000 });
    server.script(...Array.from({ length: 30 }, () => ({ kind: 'text' as const, text: `Summary: ${summaryCanary}` })));
    const dataConverter = dataConverterFromConfig({ codec: testCodecSettings }, { DC_CODEC_KEYS: keys });
    const taskQueue = `codec-${process.pid}-${Date.now()}`;
    const archive = SqliteArchive.open({ path: join(mkdtempSync(join(tmpdir(), 'dc-codec-')), 'archive.sqlite') });
    const worker = await createConversationWorker({
      connection: testEnv.nativeConnection,
      namespace: 'default',
      taskQueue,
      workflows: {
        workflowBundle: await bundleWorkflowCode({
          workflowsPath: require.resolve('../support/workflows'),
          failureConverterPath: FAILURE_CONVERTER_PATH,
          logger: { trace() {}, debug() {}, info() {}, warn() {}, error: console.error, log() {} },
        }),
      },
      activities: createActivities({
        archive,
        profiles: testProfiles(server.baseURL),
        summarize: { env: { DC_TEST_KEY: 'sk-codec-test' } },
      }),
      dataConverter,
    });
    const client = new Client({ connection: testEnv.connection, namespace: 'default', dataConverter });
    const id = uniqueConversationId('encrypted');
    const conv = new ConversationClient({
      client,
      conversationId: id,
      taskQueue,
      settings: { budget: 2500, summarizer: { profile: TEST_CHAT_PROFILE } },
    });
    const messages = corpusConversation('tau2-bench-gpt41-retail-task38').messages;
    const sample = (messages.find((m) => (m as { role: string }).role === 'user') as { content: string }).content;
    const checks: string[] = [];
    let readSummary = false;
    await worker.runUntil(async () => {
      await conv.prepare([{ role: 'user', content: `remember ${canary}` }]);
      let folded = 0;
      for (const m of messages) {
        const p = await conv.prepare([m]);
        if (p.fold?.ok) folded++;
        if (folded >= 1 && checks.length === 0) {
          checks.push(await rawHistory(testEnv.client, conv.workflowId));
          // The first fold's summary is the model's (a later small fold may fall back to the offline digest).
          readSummary = JSON.stringify(await conv.context()).includes(summaryCanary);
        }
        if (folded >= 2) break;
      }
      assert.ok(folded >= 2, 'two folds through the model summarizer');
      // A failure whose message names the caller's input: its message is encrypted too.
      await assert.rejects(conv.configure({ summarizer: { profile: profileCanary } }), (e: Error) =>
        String((e as { cause?: Error }).cause?.message).includes(profileCanary)
      );
      assert.ok(readSummary, "the client reads the model's summary");
      checks.push(await rawHistory(testEnv.client, conv.workflowId));
    });
    await server.close();
    await archive.close();

    assert.equal(checks.length, 2, 'read while the worker was working, twice');
    for (const raw of checks) {
      for (const secret of [
        canary,
        summaryCanary,
        sample.slice(0, 40),
        profileCanary,
        'not configured on this worker',
      ]) {
        assert.equal(count(raw, secret), 0, `raw history holds ${JSON.stringify(secret)}`);
      }
      for (const k of [
        keys,
        rawKey.toString('base64'),
        rawKey.toString('hex'),
        rawKey.toString('latin1'),
        'DC_CODEC_KEYS',
      ]) {
        assert.equal(count(raw, k), 0, 'no key or codec setting in history');
      }
      // (Core writes its own marker details — local-activity bookkeeping, patch ids — as plain JSON: no user data.)
      assert.ok(count(raw, 'binary/encrypted') > 10, 'encrypted payloads');
    }

    // The real Temporal CLI shows the history decoded through the codec server, and only through it.
    const codecServer = await startCodecServerProcess({ DC_CODEC_KEYS: keys });
    try {
      const show = (extra: string[]) =>
        run(
          temporalCliPath(),
          ['workflow', 'show', '-w', conv.workflowId, '--address', testEnv.address, '-o', 'json', ...extra],
          {
            maxBuffer: 64 * 1024 * 1024,
          }
        );
      // JSON output shows payload data as base64: read every data field.
      const payloadText = (json: string): string =>
        [...json.matchAll(/"data":\s*"([A-Za-z0-9+/=]+)"/g)]
          .map((m) => Buffer.from(m[1]!, 'base64').toString('utf8'))
          .join('\n');
      const decoded = payloadText((await show(['--codec-endpoint', codecServer.url])).stdout);
      assert.ok(decoded.includes(summaryCanary) && decoded.includes(canary), 'decoded through the codec server');
      const plain = payloadText((await show([])).stdout);
      assert.ok(!plain.includes(summaryCanary) && !plain.includes(canary), 'ciphertext without it');
    } finally {
      codecServer.child.kill('SIGTERM');
    }
  });

  it('the production worker process with codec settings from its configuration stores ciphertext only', async () => {
    const testEnv = await sharedTestEnv();
    const server = await startOpenAIServer({ lifetimeMs: 600_000 });
    server.script(...Array.from({ length: 5 }, () => ({ kind: 'text' as const, text: `Summary: ${summaryCanary}` })));
    const dir = mkdtempSync(join(tmpdir(), 'dc-codec-process-'));
    const taskQueue = `codec-process-${process.pid}-${Date.now()}`;
    const config = chatWorkerConfig({
      address: testEnv.address,
      taskQueue,
      dir,
      baseURL: server.baseURL,
      apiKeyEnv: 'DC_TEST_KEY',
      extra: ['codec: { encrypt: true, keyId: k1 }'],
    });
    const worker = await startProductionWorker(dir, config, {
      DC_TEST_KEY: 'sk-codec-process',
      DC_CODEC_KEYS: keys,
      LOG_LEVEL: 'debug',
    });
    const client = new Client({
      connection: testEnv.connection,
      namespace: 'default',
      dataConverter: dataConverterFromConfig({ codec: testCodecSettings }, { DC_CODEC_KEYS: keys }),
    });
    const conv = new ConversationClient({
      client,
      conversationId: uniqueConversationId('encrypted-process'),
      taskQueue,
      settings: { budget: 2500 },
    });
    let raw: string;
    try {
      await conv.prepare([{ role: 'user', content: `remember ${canary}` }]);
      for (const m of corpusConversation('tau2-bench-gpt41-retail-task38').messages) {
        const p = await conv.prepare([m]);
        if (p.folding) await conv.waitForFold({ timeoutMs: 60_000 });
        if ((await conv.folds()).some((f) => f.ok && f.responseId !== null)) break;
      }
      assert.ok(server.requests.length > 0, 'a fold went through the model');
      raw = await rawHistory(testEnv.client, conv.workflowId);
    } finally {
      await worker.stop();
      await server.close();
    }
    assert.ok(count(raw, 'binary/encrypted') > 10, 'encrypted payloads');
    for (const text of [canary, summaryCanary, ...forms(keys), ...forms(rawKey.toString('base64')), 'DC_CODEC_KEYS']) {
      assert.equal(count(raw, text), 0, `raw history holds ${text.slice(0, 30)}`);
      assert.equal(count(worker.output(), text), 0, `worker logs hold ${text.slice(0, 30)}`);
    }
  });

  it('control: without the codec the same raw-history check finds the message text', async () => {
    await withConversationWorker(async ({ env, open }) => {
      const conv = open(uniqueConversationId('plain'));
      await conv.prepare([{ role: 'user', content: `remember ${canary}` }]);
      assert.ok(count(await rawHistory(env.client, conv.workflowId), canary) > 0);
    });
  });
});

/**
 * A summarizer key used for real never leaks. The production worker (`src/worker.ts`, its own process, its own
 * temporal.yaml) folds two conversations through the local OpenAI-compatible server: one with the key from an
 * environment variable its configuration names, one with the key from a file a profile names. The provider then
 * rejects a request with an error that echoes the key (as real providers do). The key appears nowhere in the exported
 * histories (`temporal workflow show`, fetchHistory), the worker's stdout and stderr (debug logging), the archive, or
 * anything a caller received, results and errors alike; the provider did get it, and the caller did get the error.
 */
import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { temporal } from '@temporalio/proto';
import { ConversationClient } from '../../src/client/conversation-client';
import { corpusConversation } from '../support/corpus';
import { uniqueConversationId } from '../support/conversation';
import { startOpenAIServer, type OpenAITestServer } from '../support/openai-server';
import { chatWorkerConfig, startProductionWorker } from '../support/production-worker';
import { sharedTestEnv, temporalCliPath } from '../support/temporal';

const run = promisify(execFile);
// Not shaped like an OpenAI key, so only the worker's knowledge of its own key can scrub it.
const envKey = `envkey-${randomBytes(16).toString('hex')}`;
const fileKey = `filekey-${randomBytes(16).toString('hex')}`;

/** Every form a leaked key could take: itself, its random part, base64 and hex of it. */
function forms(key: string): string[] {
  return [key, key.split('-')[1]!, Buffer.from(key).toString('base64'), Buffer.from(key).toString('hex')];
}

/** What the caller received: results, and errors with their causes, details and stacks. */
const received: string[] = [];
function keep(value: unknown): void {
  received.push(typeof value === 'string' ? value : JSON.stringify(value));
}
async function call<T>(p: Promise<T>): Promise<T | undefined> {
  try {
    const value = await p;
    keep(value);
    return value;
  } catch (err) {
    for (let e: unknown = err; e; e = (e as { cause?: unknown }).cause) {
      const x = e as { message?: unknown; stack?: unknown; details?: unknown; type?: unknown };
      keep({
        message: x.message,
        stack: x.stack,
        details: x.details,
        type: x.type,
        text: e instanceof Error ? e.toString() : JSON.stringify(e),
      });
    }
    return undefined;
  }
}

/** Feeds a corpus session until `until` holds after a prepare (and its fold, if one started, ended). */
async function drive(conv: ConversationClient, messages: unknown[], until: () => Promise<boolean>): Promise<unknown[]> {
  while (messages.length > 0) {
    const p = await call(conv.prepare([messages.shift()]));
    if (p?.folding) await call(conv.waitForFold({ timeoutMs: 60_000 }));
    if (await until()) return messages;
  }
  assert.fail('the session ended before the expected fold');
}

/** The history as `temporal workflow show -o json` prints it, with every base64 payload decoded beside it. */
async function cliHistory(env: TestWorkflowEnvironment, workflowId: string): Promise<string> {
  const { stdout } = await run(
    temporalCliPath(),
    ['workflow', 'show', '-w', workflowId, '--address', env.address, '-o', 'json'],
    { maxBuffer: 64 * 1024 * 1024 }
  );
  const decoded = [...stdout.matchAll(/"data":\s*"([A-Za-z0-9+/=]+)"/g)].map((m) =>
    Buffer.from(m[1]!, 'base64').toString('utf8')
  );
  return [stdout, ...decoded].join('\n');
}

/** The history as fetchHistory returns it: protobuf bytes (payload data raw) and its JSON form. */
async function sdkHistory(env: TestWorkflowEnvironment, workflowId: string): Promise<string> {
  const history = await env.client.workflow.getHandle(workflowId).fetchHistory();
  const proto = temporal.api.history.v1.History;
  const bytes = Buffer.from(proto.encode(history).finish()).toString('latin1');
  return `${bytes}\n${JSON.stringify(proto.toObject(proto.fromObject(history), { bytes: String }))}`;
}

const count = (text: string, what: string): number => text.split(what).length - 1;

describe('a summarizer key never leaks (production worker process)', function () {
  this.timeout(300_000);
  let server: OpenAITestServer;

  before(async () => {
    server = await startOpenAIServer({ lifetimeMs: 600_000 });
  });
  after(async () => {
    await server.close();
  });

  it('not into history, logs, the archive or any result or error a caller receives', async () => {
    const env = await sharedTestEnv();
    const dir = mkdtempSync(join(tmpdir(), 'dc-leak-'));
    const keyFile = join(dir, 'summarizer.key');
    writeFileSync(keyFile, `${fileKey}\n`);
    const taskQueue = `leak-${process.pid}-${Date.now()}`;
    const archivePath = join(dir, 'archive.sqlite'); // chatWorkerConfig's archive
    const config = chatWorkerConfig({
      address: env.address,
      taskQueue,
      dir,
      baseURL: server.baseURL,
      apiKeyEnv: 'DC_LEAK_TEST_KEY',
      extra: [
        'summarizerProfiles:',
        `  from-file: { mode: chat, model: small, baseURL: '${server.baseURL}', apiKeyFile: '${keyFile}' }`,
      ],
    });
    const worker = await startProductionWorker(dir, config, { DC_LEAK_TEST_KEY: envKey, LOG_LEVEL: 'debug' });
    const ids: string[] = [];
    try {
      for (const [label, profile, key, session] of [
        ['env', '', envKey, 'tau2-bench-gpt41-retail-task38'],
        ['file', 'from-file', fileKey, 'tau2-bench-gpt41-airline-task18'],
      ] as const) {
        const conv = new ConversationClient({
          client: env.client,
          conversationId: uniqueConversationId(`leak-${label}`),
          taskQueue,
          settings: { budget: 2500, ...(profile ? { summarizer: { profile } } : {}) },
        });
        ids.push(conv.workflowId);
        const messages = [...corpusConversation(session).messages];
        // 1. A fold through the model with the key.
        server.script({ kind: 'text', text: 'Summary: the user asked about an order; ids kept.' });
        const requestsBefore = server.requests.length;
        const rest = await drive(conv, messages, async () =>
          (await conv.folds()).some((f) => f.ok && !f.fallback && f.responseId !== null)
        );
        assert.equal(server.requests.length, requestsBefore + 1);
        assert.equal(server.requests.at(-1)!.headers.authorization, `Bearer ${key}`, 'the provider got the key');
        // 2. The provider rejects the next request with an error that echoes the key.
        server.script({ kind: 'status', status: 401, message: `Incorrect API key provided: ${key}.` });
        await drive(conv, rest, async () => (await conv.folds()).some((f) => f.error !== null));
        await call(conv.folds());
        await call(conv.state());
        await call(conv.context());
        // 3. A caller mistake on the same conversation.
        await call(conv.configure({ summarizer: { profile: 'no-such-profile' } }));
      }
    } finally {
      await worker.stop();
    }

    const everything = received.join('\n');
    assert.ok(count(everything, 'Incorrect API key provided') > 0, "the caller received the provider's error");
    assert.ok(count(everything, "'no-such-profile' is not configured"), 'and the typed error of its own mistake');
    const logs = worker.output();
    assert.ok(logs.includes('worker polling task queue'), 'the logs were captured');
    const histories: string[] = [];
    for (const id of ids) histories.push(await cliHistory(env, id), await sdkHistory(env, id));
    const history = histories.join('\n');
    assert.ok(count(history, 'Incorrect API key provided') > 0, 'the exported history holds the error, scrubbed');
    assert.ok(count(history, 'Summary: the user asked about an order') > 0, 'and the summaries');
    const archive = readFileSync(archivePath).toString('latin1');
    for (const key of [envKey, fileKey]) {
      for (const form of forms(key)) {
        assert.equal(count(history, form), 0, `exported history holds ${form}`);
        assert.equal(count(logs, form), 0, `worker logs hold ${form}`);
        assert.equal(count(everything, form), 0, `a caller received ${form}`);
        assert.equal(count(archive, form), 0, `the archive holds ${form}`);
      }
    }
    assert.equal(count(history + logs + everything, keyFile), 0, 'not even the key file path leaves the worker');
  });
});

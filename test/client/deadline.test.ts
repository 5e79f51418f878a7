// retryDeadlineMs bounds a call even when the server accepted it and no worker completes it soon: the update's
// outcome is polled within the deadline too, so the caller gets ConversationUnavailableError (with `stored`) on time
// instead of waiting for as long as the work takes.
import { strict as assert } from 'node:assert';
import { ConversationUnavailableError } from '../../src/client/errors';
import { startOpenAIServer } from '../support/openai-server';
import { TEST_CHAT_PROFILE, testProfiles } from '../support/profiles';
import { conversationClient, uniqueConversationId, withConversationWorker } from '../support/conversation';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnWorkerSlot, writeWorkflowBundle, type WorkerSlot } from '../support/crash';
import { sharedTestEnv } from '../support/temporal';

const user = (i: number) => ({
  role: 'user',
  content: `Request ${i}: ` + `please check the shipping status of order ${1000 + i} and report back. `.repeat(18),
});

const reply = (i: number) => ({ role: 'assistant', content: `Done with step ${i}.` });
/** About 1 700 tokens: five of them pass the trigger of an 8 000-token budget. */
const big = (i: number) => ({
  role: 'user',
  content: `Log ${i}: ` + `step ${i} copied file a${i} to b${i}. `.repeat(240),
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
          const conv = conversationClient(env.client, taskQueue, id, {
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
          const patient = conversationClient(env.client, taskQueue, id);
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

  it('ends every other call at the deadline with ConversationUnavailableError, never a raw gRPC error', async () => {
    // Reads, waits and settings updates retried transient answers and then threw the last one as it was (the chaos
    // suite's final check saw a bare DEADLINE_EXCEEDED from waitForFold).
    const id = uniqueConversationId('deadline-reads');
    let taskQueue = '';
    const env = await sharedTestEnv();
    await withConversationWorker(async (h) => {
      taskQueue = h.taskQueue;
      await conversationClient(h.env.client, h.taskQueue, id).prepare([user(1)]);
    });
    // The worker is gone: nothing answers the conversation's queries or updates.
    const conv = conversationClient(env.client, taskQueue, id, { retryDeadlineMs: 1500 });
    const calls: [string, () => Promise<unknown>, boolean | 'unknown'][] = [
      ['waitForFold', () => conv.waitForFold({ timeoutMs: 0 }), false],
      ['folds', () => conv.folds(), false],
      ['state', () => conv.state(), false],
      ['context', () => conv.context(), false],
      ['configure', () => conv.configure({ budget: 9000 }), 'unknown'],
      ['clear', () => conv.clear(), 'unknown'],
      ['rewind', () => conv.rewind({ expectedVersion: 1 }), 'unknown'],
      ['close', () => conv.close(), 'unknown'],
    ];
    for (const [name, call, stored] of calls) {
      const caught = await call().then(
        () => 'answered',
        (err: unknown) => err
      );
      assert.ok(caught instanceof ConversationUnavailableError, `${name}: ${String(caught)}`);
      assert.equal(caught.stored, stored, `${name}: stored`);
    }
  });

  it('ends a call by one deadline even when it first waits to learn whether an earlier append landed', async function () {
    this.timeout(180_000);
    // The earlier append's outcome is unknown (no worker), so the next call first asks the writer sequence; a worker
    // (its own process, started with the call: a few seconds on a busy machine) answers that, and then the call's
    // own update waits on a 60 s blocking fold. Each step used to get a deadline of its own (issue 22: a call blocked
    // 398 s with a 120 s deadline).
    const server = await startOpenAIServer({ lifetimeMs: 180_000, fallback: () => ({ kind: 'slow', ms: 60_000 }) });
    const env = await sharedTestEnv();
    const dir = mkdtempSync(join(tmpdir(), 'dc-doubt-'));
    const taskQueue = `deadline-doubt-${process.pid}-${Date.now()}`;
    // Long enough for a worker process to start and answer on a busy machine (over 10 s at a load of 20).
    const deadlineMs = 30_000;
    const conv = conversationClient(env.client, taskQueue, uniqueConversationId('deadline-doubt'), {
      retryDeadlineMs: deadlineMs,
      settings: { budget: 8000, foldMode: 'blocking', summarizer: { profile: TEST_CHAT_PROFILE } },
    });
    const workerEnv = {
      TEMPORAL_ADDRESS: env.address,
      TASK_QUEUE: taskQueue,
      ARCHIVE_DRIVER: 'sqlite',
      ARCHIVE_PATH: join(dir, 'archive.sqlite'),
      WORKFLOW_BUNDLE: await writeWorkflowBundle(dir),
      SUMMARIZER_BASE_URL: server.baseURL,
      DC_TEST_KEY: 'sk-deadline',
    };
    let worker: WorkerSlot | undefined;
    try {
      const first = await conv.prepare([user(1)], { output: reply(0) }).catch((err: unknown) => err);
      assert.ok(first instanceof ConversationUnavailableError, `no worker: ${String(first)}`);
      assert.equal(first.stored, 'unknown');
      const t0 = performance.now();
      const rounds = [2, 3, 4, 5, 6].flatMap((i) => [big(i), reply(i)]);
      const second = conv.prepare(rounds.slice(0, -1), { output: reply(1) }).then(
        (prepared) =>
          `answered: ${prepared.decision} (${prepared.messages.length} messages, ${prepared.tokens} tokens)`,
        (err: unknown) => err
      );
      worker = spawnWorkerSlot(workerEnv);
      const caught = await second;
      const elapsed = performance.now() - t0;
      assert.ok(caught instanceof ConversationUnavailableError, `ended unavailable: ${String(caught)}`);
      assert.ok(
        elapsed < deadlineMs + 3000,
        `ended within its deadline and the 3 s margin, not after a second deadline (${Math.round(elapsed)} ms)`
      );
      // Where it stopped depends on how fast the worker came up (learning the doubt, or waiting on the fold); the
      // deadline holds either way, and the worker was up in time to say whether the call was stored.
      assert.notEqual(caught.stored, 'unknown', caught.message);
    } finally {
      worker?.child.kill('SIGKILL');
      await server.close();
    }
  });
});

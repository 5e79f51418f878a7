/**
 * Summarizer profiles end to end: no setting a caller can send (start settings, `configure`, a forged carried state, a
 * profile name, the example workflow's options) makes the worker contact a URL or read a file its own configuration
 * did not name, and an unknown profile is a clear error. An attacker's listener on the loopback address counts
 * connections; every file the worker process opens is recorded.
 */
import { strict as assert } from 'node:assert';
import fs, { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WorkflowFailedError, WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import type { ConversationClient } from '../../src/client/conversation-client';
import { ConversationState } from '../../src/workflows/conversation/conversation-state';
import { conversationWorkflowId } from '../../src/contract/definitions';
import { defaultSettings } from '../../src/contract/settings';
import { startListener } from '../support/attacker';
import { corpusConversation } from '../support/corpus';
import { uniqueConversationId, withConversationWorker } from '../support/conversation';
import { startOpenAIServer, type OpenAITestServer } from '../support/openai-server';
import { TEST_CHAT_PROFILE, testProfiles } from '../support/profiles';

const LEGIT_KEY = 'sk-legit-worker-key-0001';
const FILE_KEY = 'sk-legit-file-key-0002';
const ATTACKER_ENV_VALUE = 'sk-attacker-env-canary-7731';
const ATTACKER_FILE_VALUE = 'sk-attacker-file-canary-9913';

/** Records the paths of every file opened or read through `fs` while installed. */
function spyOnFileReads(): { paths: string[]; restore: () => void } {
  const paths: string[] = [];
  const target = fs as unknown as Record<string, unknown>;
  const promises = fs.promises as unknown as Record<string, unknown>;
  const originals: [Record<string, unknown>, string, unknown][] = [];
  const wrap = (owner: Record<string, unknown>, name: string): void => {
    const original = owner[name] as (...args: unknown[]) => unknown;
    originals.push([owner, name, original]);
    owner[name] = function (this: unknown, ...args: unknown[]) {
      if (typeof args[0] === 'string' || args[0] instanceof URL || Buffer.isBuffer(args[0]))
        paths.push(String(args[0]));
      return original.apply(this, args);
    };
  };
  for (const name of ['readFileSync', 'openSync', 'readFile', 'open', 'createReadStream']) wrap(target, name);
  for (const name of ['readFile', 'open']) wrap(promises, name);
  return { paths, restore: () => originals.forEach(([owner, name, fn]) => (owner[name] = fn)) };
}

async function failureOf(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (err) {
    return err as Error;
  }
  assert.fail('expected a failure');
}

/** The message of the ApplicationFailure an update failed with. */
async function updateRejection(p: Promise<unknown>): Promise<ApplicationFailure> {
  const err = await failureOf(p);
  assert.ok(err instanceof WorkflowUpdateFailedError, `expected WorkflowUpdateFailedError, got ${String(err)}`);
  assert.ok(err.cause instanceof ApplicationFailure, String(err.cause));
  return err.cause;
}

/** Feeds a corpus session until a fold is attempted. */
async function foldOnce(conv: ConversationClient): Promise<void> {
  for (const m of corpusConversation('tau2-bench-gpt41-retail-task38').messages) {
    const p = await conv.prepare([m]);
    if (p.fold) return;
  }
  assert.fail('no fold was attempted');
}

describe('summarizer profiles: callers choose a name, never an endpoint or a key', function () {
  this.timeout(180_000);
  let server: OpenAITestServer;
  let listener: Awaited<ReturnType<typeof startListener>>;
  const dir = mkdtempSync(join(tmpdir(), 'dc-profiles-'));
  const attackerFile = join(dir, 'attacker-secret.txt');
  const workerKeyFile = join(dir, 'worker-key.txt');
  writeFileSync(attackerFile, ATTACKER_FILE_VALUE);
  writeFileSync(workerKeyFile, FILE_KEY);

  before(async () => {
    server = await startOpenAIServer({ lifetimeMs: 600_000 });
    listener = await startListener();
  });
  after(async () => {
    await server.close();
    await listener.close();
  });

  it('no setting a caller can send reaches a URL, key or file the worker did not configure', async () => {
    server.script(
      ...Array.from({ length: 40 }, () => ({ kind: 'text' as const, text: 'Summary: order status asked.' }))
    );
    const attack = {
      mode: 'chat',
      model: 'attacker-model',
      baseURL: listener.url,
      apiKeyEnv: 'ATTACKER_ENV',
      apiKeyFile: attackerFile,
      timeoutMs: 1000,
    };
    const spy = spyOnFileReads();
    try {
      await withConversationWorker(
        async ({ env, taskQueue, open }) => {
          const client = env.client;
          // 1. Start settings with the old free-form fields (bypassing ConversationClient's own check).
          const startedId = uniqueConversationId('attack-start');
          const startedRun = await client.workflow.start('conversationWorkflow', {
            taskQueue,
            workflowId: conversationWorkflowId(startedId),
            args: [{ conversationId: startedId, settings: { budget: 2500, summarizer: attack } }],
          });
          const started = await failureOf(startedRun.result());
          assert.ok(started instanceof WorkflowFailedError);
          assert.match(
            String(started.cause?.message),
            /invalid start input: summarizer\.mode is not a conversation setting/
          );

          // 2. configure with the old fields, a URL or a path as profile name: rejected, nothing changes.
          const conv = open(uniqueConversationId('attack-configure'), { budget: 2500 });
          await conv.prepare([{ role: 'user', content: 'hello' }]);
          const handle = client.workflow.getHandle(conv.workflowId);
          for (const summarizer of [
            attack,
            { baseURL: listener.url },
            { apiKeyFile: attackerFile },
            { profile: listener.url },
            { profile: attackerFile },
          ]) {
            const err = await failureOf(handle.executeUpdate('configure', { args: [{ summarizer }] }));
            assert.match(
              err.message + String((err as { cause?: unknown }).cause),
              /not a conversation setting|summarizer\.profile must be/
            );
          }
          assert.deepEqual((await conv.state()).settings.summarizer, defaultSettings.summarizer);
          await foldOnce(conv);

          // 3. A forged continue-as-new state carrying the old fields: the run is refused before anything runs.
          const forgedId = uniqueConversationId('attack-carried');
          const carried = ConversationState.create(forgedId, {
            ...defaultSettings,
            budget: 2500,
            summarizer: attack as unknown as typeof defaultSettings.summarizer,
          }).carried;
          const forgedRun = await client.workflow.start('conversationWorkflow', {
            taskQueue,
            workflowId: conversationWorkflowId(forgedId),
            args: [{ conversationId: forgedId, carried }],
          });
          const forged = await failureOf(forgedRun.result());
          assert.ok(forged instanceof WorkflowFailedError);
          assert.match(
            String(forged.cause?.message),
            /invalid start input: carried\.settings: summarizer\.mode is not a conversation setting/
          );

          // 4. The example agent loop with the old fields in its compactor options: refused before any call.
          const example = await client.workflow.start('compactingAgentWorkflow', {
            taskQueue,
            workflowId: `attack-example-${Date.now()}`,
            args: [
              {
                steps: [{ append: [{ role: 'user', content: 'x' }] }],
                compactor: { budget: 2000, summarizer: attack },
              },
            ],
          });
          const exampleFailure = await failureOf(example.result());
          assert.ok(exampleFailure instanceof WorkflowFailedError);
          assert.match(String(exampleFailure.cause?.message), /summarizer\.mode is not a conversation setting/);

          // 5. Control: a profile of the worker's own configuration that reads a key file does read it.
          const withFile = open(uniqueConversationId('worker-file'), {
            budget: 2500,
            summarizer: { profile: 'filekey' },
          });
          await foldOnce(withFile);
        },
        {
          profiles: testProfiles(server.baseURL, {
            default: { mode: 'chat', baseURL: server.baseURL, apiKeyEnv: 'DC_TEST_KEY', model: 'small' },
            filekey: { mode: 'chat', baseURL: server.baseURL, apiKeyFile: workerKeyFile, model: 'small' },
          }),
          summarize: { env: { DC_TEST_KEY: LEGIT_KEY, ATTACKER_ENV: ATTACKER_ENV_VALUE } },
        }
      );
    } finally {
      spy.restore();
    }
    assert.equal(listener.connections(), 0, "the attacker's listener was never contacted");
    assert.ok(!spy.paths.some((p) => p.includes('attacker-secret')), 'the caller-named file was never opened');
    assert.ok(spy.paths.includes(workerKeyFile), "the worker's own key file was read (the spy sees reads)");
    const keys = new Set(server.requests.map((r) => r.headers.authorization));
    assert.deepEqual([...keys].sort(), [`Bearer ${FILE_KEY}`, `Bearer ${LEGIT_KEY}`]);
    for (const r of server.requests) {
      assert.ok(!r.raw.includes(ATTACKER_ENV_VALUE) && !r.raw.includes(ATTACKER_FILE_VALUE));
      assert.equal(r.body?.model, 'small', 'the model is the profile’s');
    }
  });

  it('an unknown profile is a clear error when chosen (a start with it fails), and configure can fix it', async () => {
    await withConversationWorker(
      async ({ open }) => {
        const id = uniqueConversationId('unknown-profile');
        const first = await updateRejection(
          open(id, { summarizer: { profile: 'gpt-5-turbo' } }).prepare([{ role: 'user', content: 'hello' }])
        );
        assert.equal(first.type, 'InvalidSettings');
        assert.equal(
          first.message,
          "summarizer profile 'gpt-5-turbo' is not configured on this worker (profiles: default, test-chat)"
        );
        // That start failed (nothing stored): a correct start of the same id works, and configure is checked too.
        const conv = open(id);
        await conv.prepare([]);
        const bad = await updateRejection(conv.configure({ summarizer: { profile: 'nope' } }));
        assert.equal(bad.type, 'InvalidSettings');
        assert.match(bad.message, /'nope' is not configured on this worker/);
        const fixed = await conv.configure({ summarizer: { profile: TEST_CHAT_PROFILE, instructions: 'Keep ids.' } });
        assert.deepEqual(fixed.summarizer, {
          profile: TEST_CHAT_PROFILE,
          maxOutputTokens: 0,
          instructions: 'Keep ids.',
        });
        const ok = await conv.prepare([{ role: 'user', content: 'hello' }]);
        assert.equal(ok.messages.length, 1);
      },
      { profiles: testProfiles(server.baseURL) }
    );
  });
});

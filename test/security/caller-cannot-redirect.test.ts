/**
 * No setting a caller can send makes the worker contact a URL or read a file its own configuration did not name.
 * The production worker (its own process, its own temporal.yaml) gets, through every way in (start argument,
 * `ConversationClient` settings, `configure`, append/prepare input, the append signal, a forged continue-as-new
 * state), URLs of an attacker's loopback listener, `file://` URLs, paths of a secret file and of a FIFO trap, path
 * traversals and the name of a variable holding a secret, in every settings field and as profile names and
 * instructions. Afterwards: the listener saw no connection, no process opened the FIFO, the secret file's and the
 * variable's values appear nowhere (history, logs, results, errors, the provider's requests), the provider only ever
 * got the worker's own key, and every refusal was typed (`InvalidSettings`; `InvalidStart`/`InvalidAppend` where the
 * whole start argument or append was refused).
 */
import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import { closeSync, constants, createReadStream, mkdtempSync, openSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WorkflowFailedError } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { ConversationClient } from '../../src/client/conversation-client';
import { ConversationState } from '../../src/workflows/conversation/conversation-state';
import { conversationWorkflowId } from '../../src/contract/definitions';
import { defaultSettings } from '../../src/contract/settings';
import { fifoTrap, startListener } from '../support/attacker';
import { corpusConversation } from '../support/corpus';
import { uniqueConversationId } from '../support/conversation';
import { startOpenAIServer } from '../support/openai-server';
import { chatWorkerConfig, startProductionWorker } from '../support/production-worker';
import { sharedTestEnv } from '../support/temporal';

const workerKey = `workerkey-${randomBytes(12).toString('hex')}`;
const secretValue = `SECRET-FILE-${randomBytes(12).toString('hex')}`;
const secretEnvValue = `SECRET-ENV-${randomBytes(12).toString('hex')}`;

/** The failure type and message of a rejected call (undefined type when it was not an ApplicationFailure). */
interface Refusal {
  what: string;
  type: string | undefined;
  message: string;
}

describe('no caller setting reaches a URL or file the worker did not configure (production worker process)', function () {
  this.timeout(300_000);

  it('every field, every way in: zero connections, zero file opens, typed refusals', async () => {
    const env = await sharedTestEnv();
    const server = await startOpenAIServer({ lifetimeMs: 600_000 });
    const listener = await startListener();
    const dir = mkdtempSync(join(tmpdir(), 'dc-redirect-'));
    const secretFile = join(dir, 'secret.txt');
    writeFileSync(secretFile, secretValue);
    const trap = fifoTrap(join(dir, 'trap.fifo'));

    // Control: the trap sees a reader (one blocked opening it), and stops seeing it once it is gone.
    const reader = createReadStream(trap.path);
    await new Promise((r) => setTimeout(r, 300));
    assert.ok(trap.hasReader(), 'the trap detects a reader');
    closeSync(openSync(trap.path, constants.O_WRONLY | constants.O_NONBLOCK));
    await new Promise<void>((r) => reader.once('close', () => r()).resume());
    assert.ok(!trap.hasReader(), 'and its absence');
    // Control: the listener counts a connection.
    await new Promise<void>((r) =>
      connect(Number(new URL(listener.url).port), '127.0.0.1')
        .on('error', () => undefined)
        .once('close', () => r())
    );
    assert.equal(listener.connections(), 1, 'the listener counts connections');

    const hostile = [
      listener.url,
      `${listener.url}/chat/completions`,
      `file://${secretFile}`,
      secretFile,
      trap.path,
      `../../../..${trap.path}`,
      'SECRET_ENV',
      'http://169.254.169.254/latest/meta-data/',
    ];
    const taskQueue = `redirect-${process.pid}-${Date.now()}`;
    const config = chatWorkerConfig({
      address: env.address,
      taskQueue,
      dir,
      baseURL: server.baseURL,
      apiKeyEnv: 'DC_WORKER_KEY',
      extra: ['summarizerProfiles: { offline: { mode: extractive } }'],
    });
    const worker = await startProductionWorker(dir, config, {
      DC_WORKER_KEY: workerKey,
      SECRET_ENV: secretEnvValue,
      LOG_LEVEL: 'debug',
    });
    const refusals: Refusal[] = [];
    const accepted: string[] = [];
    const received: string[] = [];
    const attempt = async (what: string, p: Promise<unknown>): Promise<void> => {
      try {
        received.push(JSON.stringify(await p));
        accepted.push(what);
      } catch (err) {
        const cause = (err as { cause?: { type?: string; message?: string } }).cause;
        // An ApplicationFailure's type; the client's own check throws a SettingsError before sending.
        const failure = cause?.type !== undefined ? cause : (err as { type?: string; message?: string; name?: string });
        refusals.push({ what, type: failure.type ?? (err as Error).name, message: String(failure.message ?? err) });
        received.push(String(err), String((err as Error).stack), JSON.stringify(cause ?? null));
      }
    };
    const ids: string[] = [];
    try {
      const conv = new ConversationClient({
        client: env.client,
        conversationId: uniqueConversationId('redirect'),
        taskQueue,
      });
      ids.push(conv.workflowId);
      await conv.prepare([{ role: 'user', content: 'hello' }]);
      const handle = env.client.workflow.getHandle(conv.workflowId);

      // configure: every top-level field, every summarizer field (current and pre-profile), unknown ones.
      const topLevel = Object.keys(defaultSettings).filter((k) => k !== 'summarizer');
      const summarizerFields = ['profile', 'maxOutputTokens', 'instructions', 'mode', 'model', 'baseURL'];
      summarizerFields.push('apiKeyEnv', 'apiKeyFile', 'timeoutMs', 'url', 'endpoint', 'apiKey', 'headers');
      for (const value of hostile) {
        for (const key of [...topLevel, 'baseURL', 'apiKeyFile', 'summarizerProfiles']) {
          await attempt(`configure ${key}`, conv.configure({ [key]: value }));
        }
        for (const key of summarizerFields) {
          await attempt(`configure summarizer.${key}`, conv.configure({ summarizer: { [key]: value } }));
        }
        await attempt('configure plan', conv.configure({ plan: { filter: value, baseURL: value } } as never));
        // Sent raw (the ConversationClient checks settings itself before sending).
        await attempt(
          'raw configure',
          handle.executeUpdate('configure', { args: [{ summarizer: { profile: value } }] })
        );
      }
      for (const profile of [
        '..',
        '../../etc/passwd',
        'default/../offline',
        '%2e%2e%2f',
        'offline\u0000',
        ' default',
      ]) {
        await attempt(`profile ${JSON.stringify(profile)}`, conv.configure({ summarizer: { profile } }));
      }

      // append/prepare input and the signal with endpoint fields beside the messages.
      const extra = {
        baseURL: listener.url,
        apiKeyFile: secretFile,
        settings: { summarizer: { baseURL: listener.url } },
      };
      for (const name of ['append', 'prepare']) {
        await attempt(
          `raw ${name}`,
          handle.executeUpdate(name, { args: [{ messages: [{ role: 'user', content: 'x' }], ...extra }] })
        );
      }
      await handle.signal('append', { messages: [{ role: 'user', content: 'y' }], ...extra } as never);

      // Client options: refused before anything is sent.
      for (const value of hostile) {
        for (const settings of [{ summarizer: { baseURL: value } }, { summarizer: { profile: value } }]) {
          await attempt(
            `client settings ${Object.keys(settings.summarizer)[0]}`,
            Promise.resolve().then(
              () => void new ConversationClient({ client: env.client, conversationId: 'c', taskQueue, settings })
            )
          );
        }
      }

      // Start arguments sent raw: settings, limits and a forged continue-as-new state with hostile values.
      const attack = { mode: 'chat', baseURL: listener.url, apiKeyEnv: 'SECRET_ENV', apiKeyFile: secretFile };
      const forge = (id: string, summarizer: object) =>
        ConversationState.create(id, { ...defaultSettings, budget: 2500, summarizer: summarizer as never }).carried;
      for (const args of [
        { settings: { summarizer: { mode: 'chat', baseURL: listener.url, apiKeyFile: secretFile } } },
        { settings: { summarizer: { profile: `file://${secretFile}` } } },
        { settings: { summarizer: { apiKeyEnv: 'SECRET_ENV' } } },
        { limits: { maxUpdatesPerRun: listener.url } },
        { settings: { baseURL: listener.url } },
        // A forged continue-as-new state carrying endpoint fields.
        (id: string) => ({ carried: forge(id, { ...defaultSettings.summarizer, ...attack }) }),
      ]) {
        const id = uniqueConversationId('redirect-start');
        const run = await env.client.workflow.start('conversationWorkflow', {
          taskQueue,
          workflowId: conversationWorkflowId(id),
          args: [{ conversationId: id, ...(typeof args === 'function' ? args(id) : args) }],
        });
        ids.push(run.workflowId);
        const failed = await run.result().then(
          () => undefined,
          (e: unknown) => e
        );
        assert.ok(failed instanceof WorkflowFailedError, 'the start argument was refused');
        const cause = failed.cause as { type?: string; message: string };
        refusals.push({ what: 'raw start', type: cause.type, message: cause.message });
        received.push(cause.message);
      }

      // A forged state with hostile instructions only: folds use the worker's profile, the instructions are text.
      const forgedId = uniqueConversationId('redirect-carried');
      const carried = forge(forgedId, { ...defaultSettings.summarizer, instructions: hostile.join(' ') });
      await env.client.workflow.start('conversationWorkflow', {
        taskQueue,
        workflowId: conversationWorkflowId(forgedId),
        args: [{ conversationId: forgedId, carried }],
      });
      ids.push(conversationWorkflowId(forgedId));
      const forged = new ConversationClient({ client: env.client, conversationId: forgedId, taskQueue });
      server.script(...Array.from({ length: 10 }, () => ({ kind: 'text' as const, text: 'Summary: orders.' })));
      for (const m of corpusConversation('tau2-bench-gpt41-retail-task38').messages) {
        const p = await forged.prepare([m]);
        received.push(JSON.stringify(p));
        if (p.folding) await forged.waitForFold({ timeoutMs: 60_000 });
        if ((await forged.folds()).some((f) => f.ok && f.responseId !== null)) break;
      }
      assert.ok(server.requests.length > 0, "the forged conversation folded through the worker's own profile");
      assert.ok(
        server.requests.some((r) => r.raw.includes(hostile[0]!)),
        'its instructions reached the model as text'
      );
      received.push(JSON.stringify(await forged.state()), JSON.stringify(await conv.state()));
    } finally {
      await worker.stop();
    }

    assert.equal(listener.connections(), 1, "the attacker's listener was never contacted (beyond the control)");
    assert.ok(!trap.hasReader(), 'no process opened the FIFO');
    const types = ['InvalidSettings', 'InvalidStart', 'InvalidAppend', 'SettingsError'];
    const untyped = refusals.filter((r) => !types.includes(r.type ?? ''));
    assert.deepEqual(untyped, [], 'every refusal is typed');
    // `model` only picks the tokenizer (any name, never contacted) and instructions are text for the configured model.
    assert.deepEqual(
      [...new Set(accepted)].filter((w) => !w.startsWith('client settings')),
      ['configure model', 'configure summarizer.instructions'],
      'what was accepted'
    );
    assert.ok(refusals.some((r) => r.what === 'raw configure' && /summarizer\.profile must be/.test(r.message)));
    assert.ok(
      refusals.some((r) => /is not configured on this worker/.test(r.message)),
      "'..' is just an unknown name"
    );
    // The client checks the shape; a well-formed name ('SECRET_ENV') is the worker's to refuse as unknown.
    const clientRefusals = refusals.filter((r) => r.what.startsWith('client settings'));
    assert.ok(
      clientRefusals.every((r) => r.type === 'SettingsError'),
      JSON.stringify(clientRefusals)
    );
    assert.equal(clientRefusals.filter((r) => r.what === 'client settings baseURL').length, hostile.length);
    assert.deepEqual(
      accepted.filter((w) => w.startsWith('client settings')),
      ['client settings profile'],
      'only the well-formed name passes the client'
    );
    assert.ok(
      refusals.filter((r) => r.what.startsWith('configure')).every((r) => r.type === 'InvalidSettings'),
      'configure refusals are InvalidSettings'
    );
    for (const r of server.requests) assert.equal(r.headers.authorization, `Bearer ${workerKey}`);

    const proto = temporal.api.history.v1.History;
    const histories: string[] = [];
    for (const id of ids) {
      const history = await env.client.workflow.getHandle(id).fetchHistory();
      histories.push(Buffer.from(proto.encode(history).finish()).toString('latin1'));
    }
    const everywhere = [
      histories.join('\n'),
      worker.output(),
      received.join('\n'),
      refusals.map((r) => r.message).join('\n'),
      server.requests.map((r) => `${JSON.stringify(r.headers)} ${r.raw}`).join('\n'),
    ];
    assert.ok(everywhere[0]!.includes(listener.url), 'the histories hold the hostile input (the search reads them)');
    for (const secret of [secretValue, secretEnvValue]) {
      everywhere.forEach((text, i) => assert.ok(!text.includes(secret), `secret found in place ${i}`));
    }
    await listener.close();
    await server.close();
  });
});

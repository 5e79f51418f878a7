import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import Ajv from 'ajv';
import { WithStartWorkflowOperation, WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import * as protocol from '../../src/contract/definitions';
import { PROTOCOL_VERSION } from '../../src/contract/protocol-version';
import { generateProtocolSchema, PROTOCOL_SCHEMA_PATH } from '../../scripts/protocol-schema';
import { uniqueConversationId, withConversationWorker } from '../support/conversation';

const checkedIn = readFileSync(PROTOCOL_SCHEMA_PATH, 'utf8');
const schema = JSON.parse(checkedIn) as { $id: string };

/** @returns a check of one message part against the schema, failing with ajv's errors. */
function validator() {
  const ajv = new Ajv({ strict: false, allErrors: true });
  ajv.addSchema(schema);
  return (kind: string, name: string, part: 'argument' | 'result', value: unknown): void => {
    const path =
      kind === 'workflow'
        ? `#/definitions/ConversationProtocol/properties/workflow/properties/${part}`
        : `#/definitions/ConversationProtocol/properties/${kind}/properties/${name}/properties/${part}`;
    const validate = ajv.getSchema(`${schema.$id}${path}`);
    assert.ok(validate, `the schema has ${path}`);
    const ok = validate(value);
    assert.ok(ok, `${kind} ${name} ${part} fits the schema: ${JSON.stringify(validate.errors)}`);
  };
}

const user = (i: number) => ({
  role: 'user',
  content: `question ${i}: ${'tell me about the order status '.repeat(6)}`,
});
const assistant = (i: number) => ({
  role: 'assistant',
  content: `answer ${i}: ${'the order ships tomorrow '.repeat(6)}`,
});

describe('protocol JSON Schema', function () {
  this.timeout(180_000);

  it('the checked-in schema/protocol.schema.json is what the contract generates (npm run schema)', () => {
    assert.equal(checkedIn, generateProtocolSchema(), 'run `npm run schema` and commit schema/protocol.schema.json');
  });

  it('rejects what the workflow rejects: an unknown key and a wrong type', () => {
    const check = validator();
    assert.throws(() => check('updates', 'prepare', 'argument', { messages: [], writer: 'w', clientSeq: 0, extra: 1 }));
    assert.throws(() => check('updates', 'prepare', 'argument', { messages: 'hi' }));
    assert.throws(() => check('queries', 'writerSeq', 'result', 'seven'));
  });

  it('every argument and result of a real conversation (updates, signal, queries, start, folds) fits it', async () => {
    const check = validator();
    await withConversationWorker(async ({ env, taskQueue, archive }) => {
      const conversationId = uniqueConversationId('schema');
      const workflowId = protocol.conversationWorkflowId(conversationId);
      const start = {
        conversationId,
        protocol: PROTOCOL_VERSION,
        settings: { budget: 2500, foldMode: 'blocking' as const },
        format: 'chat' as const,
      };
      check('workflow', '', 'argument', start);
      const first = { messages: [user(0)], writer: 'w1', clientSeq: 0, protocol: PROTOCOL_VERSION };
      check('updates', 'prepare', 'argument', first);
      const prepared = await env.client.workflow.executeUpdateWithStart(protocol.prepareUpdate, {
        args: [first],
        startWorkflowOperation: new WithStartWorkflowOperation('conversationWorkflow', {
          workflowId,
          taskQueue,
          args: [start],
          workflowIdConflictPolicy: 'USE_EXISTING',
        }),
      });
      check('updates', 'prepare', 'result', prepared);
      const handle = env.client.workflow.getHandle(workflowId);
      let version = prepared.version;
      for (let i = 1; i < 30; i++) {
        const input = {
          messages: [assistant(i - 1), user(i)],
          writer: 'w1',
          clientSeq: i,
          reported: { version, usage: { inputTokens: 100 * i } },
        };
        check('updates', 'prepare', 'argument', input);
        const result = await handle.executeUpdate(protocol.prepareUpdate, { args: [input] });
        check('updates', 'prepare', 'result', result);
        version = result.version;
      }
      const appendInput = { messages: [assistant(30)], writer: 'w1', clientSeq: 30 };
      check('updates', 'append', 'result', await handle.executeUpdate(protocol.appendUpdate, { args: [appendInput] }));
      const signalInput = { messages: [user(31)], writer: 'w2', clientSeq: 0 };
      check('signals', 'append', 'argument', signalInput);
      await handle.signal(protocol.appendSignal, signalInput);
      check('queries', 'context', 'result', await handle.query(protocol.contextQuery));
      check('queries', 'sendable', 'result', await handle.query(protocol.sendableQuery));
      const folds = await handle.query(protocol.foldsQuery);
      assert.ok(folds.length > 0, 'the conversation folded, so fold records are checked too');
      check('queries', 'folds', 'result', folds);
      const state = await handle.query(protocol.stateQuery);
      check('queries', 'state', 'result', state);
      check('queries', 'writerSeq', 'argument', 'w1');
      check('queries', 'writerSeq', 'result', await handle.query(protocol.writerSeqQuery, 'w1'));
      const waitInput = { timeoutMs: 1000 };
      check('updates', 'waitForFold', 'argument', waitInput);
      check(
        'updates',
        'waitForFold',
        'result',
        await handle.executeUpdate(protocol.waitForFoldUpdate, { args: [waitInput] })
      );
      const patch = { triggerRatio: 0.9 };
      check('updates', 'configure', 'argument', patch);
      check('updates', 'configure', 'result', await handle.executeUpdate(protocol.configureUpdate, { args: [patch] }));
      const rewindInput = { expectedVersion: (await handle.query(protocol.stateQuery)).version };
      check('updates', 'rewind', 'argument', rewindInput);
      check('updates', 'rewind', 'result', await handle.executeUpdate(protocol.rewindUpdate, { args: [rewindInput] }));
      check('updates', 'clear', 'result', await handle.executeUpdate(protocol.clearUpdate));
      check('updates', 'close', 'result', await handle.executeUpdate(protocol.closeUpdate));
      check('workflow', '', 'result', await handle.result());
      const held = await archive.summary(workflowId);
      // `delete` reaches the closed conversation through a new run (reuse policy ALLOW_DUPLICATE), as any SDK would.
      const erased = await env.client.workflow.executeUpdateWithStart(protocol.deleteUpdate, {
        startWorkflowOperation: new WithStartWorkflowOperation('conversationWorkflow', {
          workflowId,
          taskQueue,
          args: [{ conversationId, protocol: PROTOCOL_VERSION }],
          workflowIdConflictPolicy: 'USE_EXISTING',
          workflowIdReusePolicy: 'ALLOW_DUPLICATE',
        }),
      });
      check('updates', 'delete', 'result', erased);
      assert.ok(held.messages > 0);
      assert.deepEqual(erased, { messages: held.messages, folds: held.folds, superseded: held.superseded });
      assert.equal((await archive.summary(workflowId)).messages, 0);
    });
  });
});

describe('protocol version', function () {
  this.timeout(120_000);

  it('an append with an unsupported protocol fails with UnsupportedProtocol and stores nothing', async () => {
    await withConversationWorker(async ({ env, taskQueue }) => {
      const workflowId = protocol.conversationWorkflowId(uniqueConversationId('protocol-append'));
      await env.client.workflow.executeUpdateWithStart(protocol.prepareUpdate, {
        args: [{ messages: [user(0)], writer: 'w', clientSeq: 0 }], // no protocol: the current one
        startWorkflowOperation: new WithStartWorkflowOperation('conversationWorkflow', {
          workflowId,
          taskQueue,
          args: [{}],
          workflowIdConflictPolicy: 'USE_EXISTING',
        }),
      });
      const handle = env.client.workflow.getHandle(workflowId);
      const err = await handle
        .executeUpdate(protocol.prepareUpdate, {
          args: [{ messages: [user(1)], writer: 'w', clientSeq: 1, protocol: 2 }],
        })
        .then(
          () => assert.fail('the update was accepted'),
          (e: unknown) => e
        );
      assert.ok(err instanceof WorkflowUpdateFailedError);
      assert.ok(err.cause instanceof ApplicationFailure);
      assert.equal(err.cause.type, 'UnsupportedProtocol');
      assert.match(err.cause.message, /protocol 2 is not supported by this worker \(it speaks 1/);
      const state = await handle.query(protocol.stateQuery);
      assert.equal(state.messages, 1, 'nothing stored');
      assert.equal(await handle.query(protocol.writerSeqQuery, 'w'), 0);
      await handle.executeUpdate(protocol.closeUpdate);
    });
  });

  it('a start with an unsupported protocol fails the workflow with UnsupportedProtocol', async () => {
    await withConversationWorker(async ({ env, taskQueue }) => {
      const workflowId = protocol.conversationWorkflowId(uniqueConversationId('protocol-start'));
      const handle = await env.client.workflow.start('conversationWorkflow', {
        workflowId,
        taskQueue,
        args: [{ protocol: '1.0' }],
      });
      const err = await handle.result().then(
        () => assert.fail('the workflow completed'),
        (e: unknown) => e as Error & { cause?: unknown }
      );
      assert.ok(err.cause instanceof ApplicationFailure, String(err));
      assert.equal(err.cause.type, 'UnsupportedProtocol');
      assert.match(err.cause.message, /start: protocol "1.0" is not supported/);
    });
  });
});

import { strict as assert } from 'node:assert';
import { WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { conversationWorkflowId } from '../../../src/contract/definitions';
import { withConversationWorker, uniqueConversationId } from '../../support/conversation';

const system = { role: 'system', content: 'You are a careful assistant.' };
const user = (text: string) => ({ role: 'user', content: text });
const assistant = (text: string) => ({ role: 'assistant', content: text });
const call = (id: string, name: string, args: object) => ({
  role: 'assistant',
  content: null,
  tool_calls: [{ id, type: 'function', function: { name, arguments: JSON.stringify(args) } }],
});
const result = (id: string, text: string) => ({ role: 'tool', tool_call_id: id, content: text });

/** The ApplicationFailure an update failed with. */
async function updateFailure(p: Promise<unknown>): Promise<ApplicationFailure> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof WorkflowUpdateFailedError, `expected WorkflowUpdateFailedError, got ${String(err)}`);
    assert.ok(
      err.cause instanceof ApplicationFailure,
      `expected an ApplicationFailure cause, got ${String(err.cause)}`
    );
    return err.cause;
  }
  assert.fail('the update was expected to fail');
}

describe('conversationWorkflow on the real dev server', function () {
  this.timeout(120_000);

  it('starts on first use, appends, and returns the context to send', async () => {
    await withConversationWorker(async ({ open }) => {
      const conv = open(uniqueConversationId('basic'));
      const first = await conv.prepare([system, user('hello')]);
      assert.deepEqual(first.messages, [system, user('hello')]);
      assert.equal(first.version, 1);
      assert.ok(first.tokens > 0 && first.tokens < 100, `tokens ${first.tokens}`);
      await conv.record(assistant('hi, how can I help?'));
      const second = await conv.prepare([user('tell me a joke')]);
      assert.deepEqual(second.messages, [
        system,
        user('hello'),
        assistant('hi, how can I help?'),
        user('tell me a joke'),
      ]);
      const snapshot = await conv.context();
      assert.deepEqual(snapshot.messages, second.messages);
      const state = await conv.state();
      assert.equal(state.messages, 4);
      assert.equal(state.archived, 4);
      assert.equal(state.folds, 0);
    });
  });

  it('rejects bad input with an ApplicationFailure, stores nothing, and keeps answering', async () => {
    await withConversationWorker(async ({ open }) => {
      const conv = open(uniqueConversationId('bad'));
      await conv.prepare([user('hi')]);
      const failure = await updateFailure(conv.prepare([result('call_unknown', 'output')]));
      assert.match(failure.message, /message 0/);
      assert.match(failure.message, /call_unknown|unknown call|no call/i);
      const state = await conv.state();
      assert.equal(state.messages, 1, 'nothing was appended');
      const ok = await conv.prepare([assistant('still here')]);
      assert.equal(ok.messages.length, 2);
    });
  });

  it('rejects a message over maxMessageBytes before it is appended', async () => {
    await withConversationWorker(async ({ open }) => {
      const conv = open(uniqueConversationId('big'), { maxMessageBytes: 2048 });
      await conv.prepare([user('hi')]);
      const failure = await updateFailure(conv.prepare([user('x'.repeat(4000))]));
      assert.match(failure.message, /message 0 is \d+ bytes.*2048-byte limit/);
      assert.equal((await conv.state()).messages, 1);
    });
  });

  it('does not append a retried append twice (same clientSeq, same message ids)', async () => {
    await withConversationWorker(async ({ env, open }) => {
      const id = uniqueConversationId('idem');
      const conv = open(id);
      await conv.prepare([user('one')]);
      const handle = env.client.workflow.getHandle(conversationWorkflowId(id));
      // A retry of this client's writer sequence 0 (already applied by prepare above) changes nothing.
      const retry = await handle.executeUpdate('append', {
        args: [{ messages: [user('one')], writer: conv.writerId, clientSeq: 0 }],
      });
      assert.equal((retry as { appended: number }).appended, 0);
      assert.equal((await conv.state()).messages, 1);

      const s0 = open(uniqueConversationId('idem-s0'));
      const m = { id: 'm-1', type: 'user', text: 'hello' };
      await s0.prepare([m]);
      const h2 = env.client.workflow.getHandle(s0.workflowId);
      const again = await h2.executeUpdate('append', {
        args: [{ messages: [m, { id: 'm-2', type: 'bot', text: 'hi' }] }],
      });
      assert.equal((again as { appended: number }).appended, 1, 'only the new id is appended');
      assert.equal((await s0.state()).messages, 2);
    });
  });

  it('rewinds the last round, clears to the system messages, and closes', async () => {
    await withConversationWorker(async ({ open }) => {
      const conv = open(uniqueConversationId('rewind'));
      await conv.prepare([system, user('first question')]);
      await conv.record(assistant('first answer'));
      await conv.prepare([user('second question')]);
      await conv.record([call('c1', 'lookup', { q: 'x' }), result('c1', 'found x'), assistant('second answer')]);
      const rewound = await conv.rewind();
      assert.deepEqual(rewound.removed, [
        user('second question'),
        call('c1', 'lookup', { q: 'x' }),
        result('c1', 'found x'),
        assistant('second answer'),
      ]);
      assert.deepEqual((await conv.context()).messages, [system, user('first question'), assistant('first answer')]);
      await conv.clear();
      assert.deepEqual((await conv.context()).messages, [system]);
      const again = await conv.prepare([user('fresh start')]);
      assert.deepEqual(again.messages, [system, user('fresh start')]);
      assert.equal((await conv.state()).archived, 8, 'the archive keeps everything ever appended');
      await conv.close();
      const state = await conv.state();
      assert.equal(state.closed, true);
      await assert.rejects(conv.prepare([user('after close')]));
    });
  });

  it('validates configure and recounts with a new model', async () => {
    await withConversationWorker(async ({ open }) => {
      const conv = open(uniqueConversationId('configure'));
      await conv.prepare([user('Hello there, how are you doing today?')]);
      const failure = await updateFailure(conv.configure({ policy: 'sideways' as never }));
      assert.match(failure.message, /policy must be one of/);
      const settings = await conv.configure({ budget: 50_000, model: 'gpt-4' });
      assert.equal(settings.budget, 50_000);
      const state = await conv.state();
      assert.equal(state.settings.model, 'gpt-4');
      assert.equal(state.budget, 50_000);
    });
  });

  it('truncates the oldest rounds without a summary in rounds/truncate mode (seed 003)', async () => {
    await withConversationWorker(async ({ open }) => {
      const conv = open(uniqueConversationId('truncate'), {
        budget: 400,
        policy: 'rounds',
        plan: { maxRounds: 3, roundsMode: 'truncate', minFoldTokens: 0 },
      });
      let last;
      for (let i = 0; i < 8; i++) {
        last = await conv.prepare([user(`question ${i}: ` + 'words '.repeat(20))]);
        await conv.record(assistant(`answer ${i}: ` + 'more words '.repeat(10)));
      }
      const folds = await conv.folds();
      assert.ok(folds.length >= 1, 'the rounds were truncated');
      assert.ok(
        folds.every((f) => f.ok && f.output === null && f.attempts === 0),
        'no summarizer call, no summary'
      );
      const context = (await conv.context()).messages as { content: string }[];
      assert.ok(!context.some((m) => m.content.startsWith('[Summary')), 'no summary item');
      assert.match(context[context.length - 1]!.content, /^answer 7/);
      assert.ok(last && last.tokens <= 400, 'the last context is within budget');
      assert.equal((await conv.state()).archived, 16);
    });
  });

  it('rejects unknown or misplaced plan settings', async () => {
    await withConversationWorker(async ({ open }) => {
      const conv = open(uniqueConversationId('plan-settings'));
      await conv.prepare([user('hi')]);
      const failure = await updateFailure(conv.configure({ plan: { budget: 5 } as never }));
      assert.match(failure.message, /plan\.budget/);
      const bad = await updateFailure(conv.configure({ plan: { tailRatio: 3 } }));
      assert.match(bad.message, /tailRatio/);
    });
  });

  it('takes fire-and-forget appends by signal, and records their errors without wedging', async () => {
    await withConversationWorker(async ({ env, open }) => {
      const conv = open(uniqueConversationId('signal'));
      await conv.prepare([user('hello')]);
      const handle = env.client.workflow.getHandle(conv.workflowId);
      await handle.signal('append', { messages: [assistant('hi there')] });
      await handle.signal('append', { messages: [result('nope', 'orphan result')] });
      await handle.signal('append', { messages: [user('still fine')] });
      let state = await conv.state();
      for (let i = 0; i < 50 && state.messages < 3; i++) {
        await new Promise((r) => setTimeout(r, 100));
        state = await conv.state();
      }
      assert.equal(state.messages, 3, 'both valid signals appended, the bad one not');
      assert.match(state.lastError?.message ?? '', /nope|unknown call|no call/i);
      const next = await conv.prepare([assistant('and more')]);
      assert.equal(next.messages.length, 4);
    });
  });

  it('rejects invalid start settings with a message naming them, on the client and in the workflow', async () => {
    await withConversationWorker(async ({ env, open, taskQueue }) => {
      assert.throws(
        () => open(uniqueConversationId('bad-start'), { budget: 5_000_000 }),
        /budget must be an integer from 256 to 1000000/
      );
      // Another language's client skips that check: the workflow rejects the update with the same message.
      const id = uniqueConversationId('bad-start-raw');
      const { WithStartWorkflowOperation } = await import('@temporalio/client');
      const failure = await updateFailure(
        env.client.workflow.executeUpdateWithStart('prepare', {
          args: [{ messages: [user('hi')] }],
          startWorkflowOperation: new WithStartWorkflowOperation('conversationWorkflow', {
            workflowId: conversationWorkflowId(id),
            taskQueue,
            args: [{ conversationId: id, settings: { policy: 'sideways' } }],
            workflowIdConflictPolicy: 'USE_EXISTING',
          }),
        })
      );
      assert.match(failure.message, /invalid start input: policy must be one of/);
    });
  });

  it('answers the sendable query with tool results in call order and a "not run" result for a pending call', async () => {
    await withConversationWorker(async ({ env, open }) => {
      const conv = open(uniqueConversationId('sendable'));
      const twoCalls = {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'c1', type: 'function', function: { name: 'first', arguments: '{}' } },
          { id: 'c2', type: 'function', function: { name: 'second', arguments: '{}' } },
          { id: 'c3', type: 'function', function: { name: 'third', arguments: '{}' } },
        ],
      };
      const prepared = await conv.prepare([user('go'), twoCalls, result('c2', 'two'), result('c1', 'one')]);
      const handle = env.client.workflow.getHandle(conv.workflowId);
      const stored = (await conv.context()).messages as { tool_call_id?: string }[];
      assert.deepEqual(
        stored.slice(2).map((m) => m.tool_call_id),
        ['c2', 'c1'],
        'stored as they came'
      );
      const sendable = await handle.query<{ messages: { tool_call_id?: string; content?: string }[] }>('sendable');
      assert.deepEqual(
        sendable.messages.slice(2).map((m) => m.tool_call_id),
        ['c1', 'c2', 'c3']
      );
      assert.match(String(sendable.messages[4]!.content), /not run|was not run|did not run/i);
      assert.deepEqual(prepared.messages, sendable.messages, 'the TypeScript client sends the same');
    });
  });
});

import { strict as assert } from 'node:assert';
import { corpusConversation } from '../support/corpus';
import { driveConversation } from '../support/drive';
import { uniqueConversationId, withConversationWorker } from '../support/conversation';
import { conversationWorkflowId } from '../../src/contract/definitions';
import { defaultLimits, defaultSettings } from '../../src/contract/settings';
import { ConversationState } from '../../src/workflows/conversation/conversation-state';
import type { ConversationClient } from '../../src/client/conversation-client';

/** Steps `from` to `to` (exclusive) of a plain agent loop: two updates each, a prepare and a record. */
async function steps(conv: ConversationClient, from: number, to: number): Promise<void> {
  for (let k = from; k < to; k++) {
    await conv.prepare([{ role: 'user', content: `step ${k}` }]);
    await conv.record({ role: 'assistant', content: `done ${k}` });
  }
}

describe('continue-as-new', function () {
  this.timeout(600_000);

  it('hands over mid-conversation, folds included, and ends exactly where a single run ends', async () => {
    const { messages } = corpusConversation('tau-bench-gpt4o-airline-task2');
    await withConversationWorker(async ({ open, archive }) => {
      const settings = { budget: 6000 };
      const id = uniqueConversationId('can');
      const split = open(id, settings, { maxUpdatesPerRun: 12 });
      const whole = open(uniqueConversationId('no-can'), settings, { maxUpdatesPerRun: 1900 });
      const a = await driveConversation(split, messages);
      const b = await driveConversation(whole, messages);
      const state = await split.state();
      assert.ok(state.continuedAsNew >= 3, `expected several runs, got ${state.continuedAsNew + 1}`);
      assert.equal((await whole.state()).continuedAsNew, 0);
      // Same input, same decisions: every prepare returned the same context, across every hand-over.
      assert.deepEqual(
        a.map((p) => p.messages),
        b.map((p) => p.messages)
      );
      assert.ok((await split.folds()).length >= 1, 'the run folded as well');
      assert.deepEqual(
        await split.folds().then((f) => f.map((r) => r.tokensBefore)),
        await whole.folds().then((f) => f.map((r) => r.tokensBefore))
      );
      assert.equal(state.archived, messages.length);
      assert.deepEqual(
        (await archive.readAll(conversationWorkflowId(id))).map((m) => m.message),
        messages
      );
      assert.equal(state.lastClientSeq, (await whole.state()).lastClientSeq);
    });
  });

  it('continues as new after 60 updates by default (what a worker taking over replays is bounded)', async () => {
    await withConversationWorker(async ({ open }) => {
      const conv = open(uniqueConversationId('can-default'));
      await steps(conv, 0, 29);
      assert.equal((await conv.state()).continuedAsNew, 0, '58 updates: still the first run');
      await steps(conv, 29, 31);
      assert.equal((await conv.state()).continuedAsNew, 1, '62 updates: the second run');
      assert.equal((await conv.state()).messages, 62);
    });
  });

  it('a continued run keeps the limits its conversation resolved at start, not the current defaults', async () => {
    await withConversationWorker(async ({ env, taskQueue, open }) => {
      // A state handed over by a run whose limits were resolved with another default (10 updates a run).
      const id = uniqueConversationId('can-carried-limits');
      const carried = ConversationState.create(id, defaultSettings, { ...defaultLimits, maxUpdatesPerRun: 10 }).carried;
      await env.client.workflow.start('conversationWorkflow', {
        taskQueue,
        workflowId: conversationWorkflowId(id),
        args: [{ conversationId: id, carried }],
      });
      const conv = open(id);
      await steps(conv, 0, 6);
      assert.equal((await conv.state()).continuedAsNew, 1, '12 updates: past the carried 10, under the default 60');
      await steps(conv, 6, 12);
      assert.equal((await conv.state()).continuedAsNew, 2, 'the next run carried the same limits on');
      assert.equal((await conv.state()).messages, 24);
    });
  });

  it('takes 2 500 appends in one conversation (past the 2 000-updates-per-run cap)', async () => {
    await withConversationWorker(async ({ open, archive }) => {
      const id = uniqueConversationId('many');
      const conv = open(id, { budget: 300_000 });
      const total = 2500;
      for (let i = 0; i < total; i++) {
        await conv.record({ role: i % 2 === 0 ? 'user' : 'assistant', content: `message ${i}` });
      }
      const state = await conv.state();
      assert.equal(state.archived, total);
      assert.equal(state.messages, total);
      assert.ok(state.continuedAsNew >= 1, 'the run was handed over before the server cap');
      const context = (await conv.context()).messages as { content: string }[];
      assert.deepEqual(
        context.map((m) => m.content),
        Array.from({ length: total }, (_, i) => `message ${i}`)
      );
      assert.equal((await archive.readAll(conversationWorkflowId(id))).length, total);
    });
  });
});

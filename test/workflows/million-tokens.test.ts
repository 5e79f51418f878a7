/**
 * A conversation with a 1 000 000-token budget and a 900 000-token context (issue #27): about 5 MB of messages,
 * over Temporal's 2 MiB payload limit, appended, carried through continue-as-new, read back, folded and exported.
 * The workflow holds the oldest messages by reference (`core/fold/reference-stub.ts`), so what it carries and what
 * its `context` query returns stay under the byte budget while the caller still gets every message whole.
 */
import { strict as assert } from 'node:assert';
import { ConversationClient } from '../../src/client/conversation-client';
import { contextQuery, conversationWorkflowId } from '../../src/contract/definitions';
import { utf8Length } from '../../src/contract/bytes';
import { proseMessages } from '../support/prose';
import { uniqueConversationId, withConversationWorker } from '../support/conversation';

const MiB = 1024 * 1024;

describe('a million-token conversation', function () {
  this.timeout(900_000);

  it('holds a 900 000-token context end to end: append, continue-as-new, context, fold, export', async () => {
    await withConversationWorker(async ({ env, taskQueue, archive }) => {
      const conversationId = uniqueConversationId('million');
      const open = (withArchive: boolean): ConversationClient =>
        new ConversationClient({
          client: env.client,
          conversationId,
          taskQueue,
          settings: { budget: 1_000_000, triggerRatio: 0.95 },
          limits: { maxUpdatesPerRun: 10 },
          ...(withArchive ? { archive } : {}),
        });
      const conv = open(false); // the README loop: no archive, the mirror alone
      const message = proseMessages(27);
      const sent: { role: string; content: string }[] = [];
      let prepared = await conv.prepare([message(sent.length)].map((m) => (sent.push(m), m)));
      while (prepared.tokens < 900_000) {
        const batch = Array.from({ length: 100 }, (_, i) => message(sent.length + i)).map((m) => (sent.push(m), m));
        prepared = await conv.prepare(batch);
      }
      assert.equal(prepared.fold, undefined, prepared.decision);
      assert.ok(utf8Length(JSON.stringify(sent)) > 4 * MiB, 'the context is over twice the payload limit');
      // Every message whole, from the caller's mirror: held by reference in the workflow, not in what is sent.
      assert.deepEqual(prepared.messages, sent);
      const state = await conv.state();
      assert.ok(state.continuedAsNew >= 2, `handed over ${state.continuedAsNew} times`);
      assert.ok(state.tokens >= 900_000, `state counts ${state.tokens} tokens`);

      // The query carries stubs, under the byte budget; a client with the archive reads the originals back.
      const handle = env.client.workflow.getHandle(conversationWorkflowId(conversationId));
      const snapshot = await handle.query(contextQuery);
      assert.equal(snapshot.messages.length, sent.length);
      assert.ok(utf8Length(JSON.stringify(snapshot)) < 1.5 * MiB, 'the context query stays under the byte budget');
      assert.deepEqual((await open(true).context()).messages, sent);

      // Past the trigger, the fold summarises the archived originals and the context drops below the budget.
      const more = Array.from({ length: 200 }, (_, i) => message(sent.length + i)).map((m) => (sent.push(m), m));
      await conv.prepare(more);
      await conv.waitForFold({ timeoutMs: 600_000 });
      const after = await conv.prepare([message(sent.length)].map((m) => (sent.push(m), m)));
      const folds = await conv.folds();
      assert.ok(folds.length >= 1, 'folded');
      assert.ok(after.tokens < 0.95 * 1_000_000, `after the fold: ${after.tokens} tokens`);
      assert.deepEqual(after.messages.slice(-50), sent.slice(-50), 'the recent part kept verbatim');

      // Export: every original in the archive, in order.
      assert.deepEqual(
        (await archive.readAll(conversationWorkflowId(conversationId))).map((m) => m.message),
        sent
      );
    });
  });
});

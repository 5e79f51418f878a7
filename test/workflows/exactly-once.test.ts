import { strict as assert } from 'node:assert';
import { conversationWorkflowId } from '../../src/contract/definitions';
import { WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { ConversationUpdateError } from '../../src/client/errors';
import { uniqueConversationId, withConversationWorker } from '../support/conversation';
import { workflowTaskFailures } from '../support/history';

const user = (text: string) => ({ role: 'user', content: text });
const assistant = (text: string) => ({ role: 'assistant', content: text });

async function failureType(p: Promise<unknown>): Promise<string | undefined> {
  try {
    await p;
  } catch (err) {
    if (err instanceof WorkflowUpdateFailedError && err.cause instanceof ApplicationFailure)
      return err.cause.type ?? undefined;
    throw err;
  }
  return undefined;
}

describe('exactly-once appends for any number of writers', function () {
  this.timeout(180_000);

  it('two clients appending at once: every message once, each writer in its own order; retries skipped', async () => {
    await withConversationWorker(async ({ open, archive, env }) => {
      const id = uniqueConversationId('writers');
      const a = open(id);
      const b = open(id);
      assert.notEqual(a.writerId, b.writerId);
      const send = async (client: typeof a, name: string) => {
        for (let i = 0; i < 12; i++) {
          // Both clients start at once: the first calls race to create the conversation.
          await client.record(i % 2 === 0 ? user(`${name} ${i}`) : assistant(`${name} ${i}`));
        }
      };
      await Promise.all([send(a, 'A'), send(b, 'B')]);
      const archived = (await archive.readAll(conversationWorkflowId(id))).map(
        (m) => (m.message as { content: string }).content
      );
      assert.equal(archived.length, 24, 'every message once');
      for (const name of ['A', 'B']) {
        assert.deepEqual(
          archived.filter((c) => c.startsWith(name)),
          Array.from({ length: 12 }, (_, i) => `${name} ${i}`),
          `${name} in order`
        );
      }
      const handle = env.client.workflow.getHandle(a.workflowId);
      // A retry of a's first append (writer sequence 0) is recognised, whatever run the conversation is in.
      const retry = await handle.executeUpdate<{ appended: number }, [unknown]>('append', {
        args: [{ messages: [user('A 0')], writer: a.writerId, clientSeq: 0 }],
      });
      assert.equal(retry.appended, 0);
      assert.equal(await handle.query<number, [string]>('writerSeq', a.writerId), 11);
      // Out of order: 1 before 0 is refused (not dropped), then both apply in order.
      const late = { messages: [user('late 1')], writer: 'raw-writer', clientSeq: 1 };
      assert.equal(await failureType(handle.executeUpdate('append', { args: [late] })), 'OutOfOrder');
      await handle.executeUpdate('append', {
        args: [{ messages: [assistant('late 0')], writer: 'raw-writer', clientSeq: 0 }],
      });
      const applied = await handle.executeUpdate<{ appended: number }, [unknown]>('append', { args: [late] });
      assert.equal(applied.appended, 1);
      assert.equal((await archive.readAll(conversationWorkflowId(id))).length, 26);
      assert.equal(await workflowTaskFailures(handle), 0);
    });
  });

  it('rewind forgets the ids it removed and honours expectedVersion', async () => {
    await withConversationWorker(async ({ open, archive }) => {
      const id = uniqueConversationId('forget');
      const conv = open(id);
      const hello = { id: 'u-1', type: 'user', text: 'hello' };
      const answer = { id: 'b-1', type: 'bot', text: 'hi' };
      const first = await conv.prepare([hello]);
      await conv.record(answer);
      const stale = first.version;
      await assert.rejects(
        conv.rewind({ expectedVersion: stale }),
        (e: unknown) => e instanceof ConversationUpdateError && e.type === 'VersionMismatch' && e.stored === false
      );
      const state = await conv.state();
      const removed = await conv.rewind({ expectedVersion: state.version });
      assert.deepEqual(removed.removed, [hello, answer]);
      // Sending the removed message again appends it (its id was forgotten), so regenerate works.
      const again = await conv.prepare([hello]);
      assert.deepEqual(again.messages, [hello]);
      assert.equal(
        (await archive.readAll(conversationWorkflowId(id))).length,
        3,
        'the archive keeps the rewound originals and the resend'
      );
    });
  });
});

import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { conversationWorkflowId } from '../../../src/contract/definitions';
import { uniqueConversationId, withConversationWorker } from '../../support/conversation';
import { workflowTaskFailures } from '../../support/history';
import { jsonBytes } from '../../../src/workflows/conversation/byte-budget';
import { openArchiveReader } from '../../../src/archive/open-archive';
import { ConversationClient } from '../../../src/client/conversation-client';
import { loadConfig } from '../../../src/config/load-config';
import { archiveWhere, lightenMessage } from '../../../src/core/fold/lighten';

const MiB = 1_048_576;

describe('the live context stays under its byte budget', function () {
  this.timeout(600_000);

  it('a conversation fed 50 one-MiB images keeps answering; a client with the archive gets every original back', async () => {
    await withConversationWorker(async ({ open, archive, env, taskQueue, dataDir }) => {
      const id = uniqueConversationId('images');
      const conv = open(id);
      const image = (i: number) => ({
        role: 'user',
        content: [
          { type: 'text', text: `image ${i}` },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${String(i % 10).repeat(1_000_000)}` } },
        ],
      });
      let last;
      for (let i = 0; i < 50; i++) {
        last = await conv.prepare([image(i)]);
        await conv.record({ role: 'assistant', content: `seen ${i}` });
      }
      assert.ok(last);
      assert.ok(jsonBytes(last.messages) < 1.6 * MiB, `sent ${jsonBytes(last.messages)} bytes`);
      // The newest image is still whole; older ones name their archived original.
      assert.deepEqual(last.messages.at(-1), image(49));
      assert.match(
        JSON.stringify(last.messages[0]),
        /image_url left out to keep the context small; the original is in the conversation archive/
      );
      const context = await conv.context();
      assert.equal(context.messages.length, 100);
      assert.ok(jsonBytes(context.messages) <= MiB + 200_000);
      const archived = await archive.readAll(conversationWorkflowId(id));
      assert.equal(archived.length, 100);
      assert.deepEqual(archived[0]!.message, image(0));
      const state = await conv.state();
      assert.ok(state.continuedAsNew >= 1, 'history stayed bounded by continue-as-new');
      assert.equal(await workflowTaskFailures(env.client.workflow.getHandle(conv.workflowId)), 0);
      const next = await conv.prepare([{ role: 'user', content: 'what was in the first image?' }]);
      assert.equal(next.messages.length, 101);

      // A client given the archive (the worker's configuration, opened read-only) hands the model every original.
      const reader = await openArchiveReader(loadConfig(join(dataDir, 'none.yaml'), { DATA_DIR: dataDir }));
      try {
        const whole = new ConversationClient({ client: env.client, conversationId: id, taskQueue, archive: reader });
        const originals = Array.from({ length: 50 }, (_, i) => [image(i), { role: 'assistant', content: `seen ${i}` }]);
        const expected = [...originals.flat(), { role: 'user', content: 'what was in the first image?' }];
        const held = (await whole.context()).messages;
        assert.ok(jsonBytes(held) > 50_000_000, 'the context comes back with its 50 MB of images');
        assert.deepEqual(held, expected);
        const asked = await whole.prepare([{ role: 'user', content: 'and in the last one?' }]);
        assert.deepEqual(asked.messages, [...expected, { role: 'user', content: 'and in the last one?' }]);
        // The workflow still holds the lightened context: every payload stays under the limit.
        assert.ok(jsonBytes((await conv.context()).messages) <= MiB + 200_000);
      } finally {
        await reader.close();
      }
    });
  });

  it("5 MB of '=' text (five 1 MB messages, within every token limit) keeps answering", async () => {
    await withConversationWorker(async ({ open, env }) => {
      const conv = open(uniqueConversationId('equals'), { maxMessageBytes: 1_500_000 });
      for (let i = 0; i < 5; i++) {
        const prepared = await conv.prepare([{ role: 'user', content: '='.repeat(1_000_000) }]);
        assert.ok(jsonBytes(prepared.messages) < 2.2 * MiB);
        await conv.record({ role: 'assistant', content: `ok ${i}` });
      }
      const context = await conv.context();
      assert.equal(context.messages.length, 10);
      assert.ok(jsonBytes(context.messages) <= MiB + 200_000, `${jsonBytes(context.messages)} bytes live`);
      assert.equal(await workflowTaskFailures(env.client.workflow.getHandle(conv.workflowId)), 0);
      assert.equal((await conv.prepare([{ role: 'user', content: 'still there?' }])).messages.length, 11);
    });
  });

  it('a message lightened and held by reference in the same step reaches the caller lightened, not as its stub', async () => {
    await withConversationWorker(async ({ open }) => {
      const id = uniqueConversationId('lightened-held');
      const conv = open(id, { maxContextBytes: 65_536 });
      const heavy = { role: 'user', content: `The heavy report, line by line. `.repeat(1_500) };
      await conv.prepare([heavy]);
      // 25 ordinary messages (nothing to lighten in them): the heavy one is lightened, and that is not enough, so
      // the oldest messages, the lightened one first, are held by reference in the same step.
      const ordinary = Array.from({ length: 25 }, (_, i) => ({
        role: i % 2 === 0 ? 'assistant' : 'user',
        content: `Message ${i}: ${'an ordinary sentence of the conversation. '.repeat(70)}`,
      }));
      const prepared = await conv.prepare(ordinary);
      assert.match(JSON.stringify((await conv.context()).messages[0]), /sha256 [0-9a-f]{16}…/, 'held by reference');
      // The model is sent the lightened message, as it would be had it not been held by reference.
      assert.deepEqual(prepared.messages, [lightenMessage(heavy, archiveWhere(id, 0)), ...ordinary]);
    });
  });
});

import { strict as assert } from 'node:assert';
import { isOffloaded } from '../../src/core/fold/pointer';
import { createTokenCounter } from '../../src/tokens';
import { corpusConversation } from '../support/corpus';
import { driveConversation } from '../support/drive';
import { uniqueConversationId, withConversationWorker } from '../support/conversation';
import { conversationWorkflowId } from '../../src/contract/definitions';

const counter = createTokenCounter({ model: 'gpt-4o' });
const BUDGET = 32_000;

describe('early eviction in the live context (seed 001, evictAtRatio)', function () {
  this.timeout(300_000);

  it('offloads stale tool outputs before folding, postpones folds, and keeps every original in the archive', async () => {
    const { messages } = corpusConversation('claude-code-spotter-ae4a77f8');
    await withConversationWorker(async ({ open, archive }) => {
      const plainId = uniqueConversationId('no-evict');
      const plain = open(plainId, { budget: BUDGET });
      await driveConversation(plain, messages);
      const evictId = uniqueConversationId('evict');
      const evicting = open(evictId, { budget: BUDGET, evictAtRatio: 0.5 });
      let offloadedSeen = 0;
      await driveConversation(evicting, messages, (prepared, step) => {
        const tokens = counter.countMessages(prepared.messages, 'chat').reduce((a, b) => a + b, 0) + 3;
        assert.ok(tokens <= BUDGET, `step ${step}: ${tokens} tokens`);
        const offloaded = prepared.messages.filter(
          (m) => (m as { role?: string }).role === 'tool' && isOffloaded(String((m as { content?: unknown }).content))
        ).length;
        offloadedSeen = Math.max(offloadedSeen, offloaded);
      });
      assert.ok(offloadedSeen > 0, 'some tool outputs were replaced by pointers');
      const plainFolds = (await plain.folds()).length;
      const evictFolds = (await evicting.folds()).length;
      assert.ok(evictFolds < plainFolds, `eviction postpones folds: ${evictFolds} vs ${plainFolds} without`);
      assert.deepEqual(
        (await archive.readAll(conversationWorkflowId(evictId))).map((a) => a.message),
        messages
      );
      // The client's mirror followed every eviction through the patches.
      const mirror = await evicting.prepare([]);
      assert.deepEqual(mirror.messages, (await evicting.context()).messages);
    });
  });
});

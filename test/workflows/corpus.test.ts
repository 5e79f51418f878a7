import { strict as assert } from 'node:assert';
import { isMarkedSummary } from '../../src/core/messages/text';
import { createTokenCounter } from '../../src/tokens';
import { corpusConversations } from '../support/corpus';
import { driveConversation } from '../support/drive';
import { uniqueConversationId, withConversationWorker } from '../support/conversation';
import { conversationWorkflowId } from '../../src/contract/definitions';

const counter = createTokenCounter({ model: 'gpt-4o' });
const BUDGET = 32_000;

describe('every corpus session through the client, 32k budget, extractive summarizer', function () {
  this.timeout(900_000);

  for (const { name, messages } of corpusConversations()) {
    it(`${name}: within budget after every prepare, and nothing lost`, async () => {
      await withConversationWorker(async ({ open, archive }) => {
        const id = uniqueConversationId(name);
        const conv = open(id, { budget: BUDGET });
        let worst = 0;
        await driveConversation(conv, messages, (prepared, step) => {
          const tokens =
            counter.countMessages(prepared.messages, 'chat').reduce((a, b) => a + b, 0) + counter.replyPriming;
          worst = Math.max(worst, tokens);
          assert.ok(
            tokens <= BUDGET,
            `step ${step}: ${tokens} tokens over the ${BUDGET} budget (${prepared.decision})`
          );
        });
        const folds = await conv.folds();
        for (const f of folds) assert.equal(f.ok, true, `fold ${f.number}: ${f.error?.message}`);
        // Archive + live context reproduce every original message: the archive holds them all, in order, and every
        // live message is either one of them or the summary.
        assert.deepEqual(
          (await archive.readAll(conversationWorkflowId(id))).map((a) => a.message),
          messages
        );
        const originals = new Set(messages.map((m) => JSON.stringify(m)));
        for (const m of (await conv.context()).messages) {
          const content = (m as { content?: unknown }).content;
          const summary = typeof content === 'string' && isMarkedSummary(content);
          const clipped = typeof content === 'string' && content.includes('the conversation archive (conversation');
          assert.ok(
            summary || clipped || originals.has(JSON.stringify(m)),
            `a live message is neither original, clipped nor the summary`
          );
        }
      });
    });
  }
});

import { strict as assert } from 'node:assert';
import { temporal } from '@temporalio/proto';
import { corpusConversation } from '../support/corpus';
import { uniqueConversationId, withConversationWorker } from '../support/conversation';

/** Bytes of a workflow's history as the server stores it (protobuf encoding of every event). */
async function historyBytes(handle: { fetchHistory(): Promise<temporal.api.history.v1.IHistory> }): Promise<number> {
  return temporal.api.history.v1.History.encode(await handle.fetchHistory()).finish().length;
}

const jsonBytes = (v: unknown): number => Buffer.byteLength(JSON.stringify(v), 'utf8');

/**
 * Each message crosses history a bounded number of times: as the update's argument, as the ingest activity's input,
 * and as the patch that inserts it when it was clipped. Everything else a turn records is small and fixed: update
 * and activity events, token counts, fold references, the summary (bounded by the summarizer's caps).
 */
const COPIES = 3;
const CONSTANT = 24 * 1024;

describe('history growth per turn', function () {
  this.timeout(300_000);

  it('is bounded by the new messages plus a constant, folds included', async () => {
    const { messages } = corpusConversation('tau2-bench-gpt41-airline-task18');
    await withConversationWorker(async ({ env, open }) => {
      const conv = open(uniqueConversationId('growth'), { budget: 8000 });
      const handle = env.client.workflow.getHandle(conv.workflowId);
      let before = 0;
      let folds = 0;
      const rows: { newBytes: number; growth: number; fold: boolean }[] = [];
      for (const message of messages) {
        const prepared = await conv.prepare([message]);
        const after = await historyBytes(handle);
        const newBytes = jsonBytes(message);
        rows.push({ newBytes, growth: after - before, fold: prepared.fold !== undefined });
        if (prepared.fold) folds++;
        assert.ok(
          after - before <= COPIES * newBytes + CONSTANT,
          `turn grew history by ${after - before} bytes for ${newBytes} bytes of new message (fold: ${prepared.fold !== undefined})`
        );
        before = after;
      }
      assert.ok(folds >= 1, 'the run folded, so fold turns were measured too');
      // The whole context would be far larger than what any single turn added.
      const context = jsonBytes((await conv.context()).messages);
      const worst = Math.max(...rows.map((r) => r.growth - COPIES * r.newBytes));
      assert.ok(worst < context, `worst fixed cost per turn ${worst} B should be below the context size ${context} B`);
    });
  });
});

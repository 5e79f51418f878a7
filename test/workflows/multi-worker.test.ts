import { strict as assert } from 'node:assert';
import type { ChildProcess } from 'node:child_process';
import { PostgresArchive } from '../../src/archive/postgres-archive';
import { ConversationClient } from '../../src/client/conversation-client';
import { conversationWorkflowId } from '../../src/contract/definitions';
import { uniqueConversationId } from '../support/conversation';
import { freshDatabase } from '../support/postgres';
import { killWorker, startWorker } from '../support/crash';
import { sharedTestEnv } from '../support/temporal';

const CONVERSATIONS = 10;
const ROUNDS = 12;

/** A message unique to its conversation and position, long enough that folds happen at the test budget. */
function messageOf(conversation: number, n: number): { role: string; content: string } {
  const role = n % 2 === 0 ? 'user' : 'assistant';
  const words = Array.from({ length: 60 }, (_, w) => `c${conversation}m${n}w${w}`).join(' ');
  return { role, content: `${role} message ${n} of conversation ${conversation}: ${words}` };
}

describe('two workers on one task queue with one PostgreSQL archive, one killed with SIGKILL', function () {
  this.timeout(300_000);

  it('the other worker finishes every conversation and the archive holds every message exactly once', async () => {
    const testEnv = await sharedTestEnv();
    const url = await freshDatabase('multiworker');
    const workerEnv = {
      TEMPORAL_ADDRESS: testEnv.address,
      TASK_QUEUE: `multi-${process.pid}-${Date.now()}`,
      ARCHIVE_DRIVER: 'postgres',
      DATABASE_URL: url,
    };
    const workers: ChildProcess[] = await Promise.all([startWorker(workerEnv), startWorker(workerEnv)]);
    const archive = await PostgresArchive.open({ url });
    try {
      const ids = Array.from({ length: CONVERSATIONS }, () => uniqueConversationId('multi'));
      let steps = 0;
      let killed = false;
      const killAt = Math.floor((CONVERSATIONS * ROUNDS) / 3);
      const run = async (c: number): Promise<void> => {
        const conv = new ConversationClient({
          client: testEnv.client,
          conversationId: ids[c]!,
          taskQueue: workerEnv.TASK_QUEUE,
          settings: { budget: 1500 },
        });
        for (let round = 0; round < ROUNDS; round++) {
          await conv.prepare([messageOf(c, 2 * round)]);
          await conv.record(messageOf(c, 2 * round + 1));
          if (++steps >= killAt && !killed) {
            killed = true;
            await killWorker(workers[0]!);
          }
        }
      };
      await Promise.all(ids.map((_, c) => run(c)));
      assert.ok(killed, 'one worker was killed mid-run');
      assert.equal(workers[1]!.exitCode, null, 'the other worker is still running');

      let folds = 0;
      let revisedFolds = 0;
      for (const [c, id] of ids.entries()) {
        const conv = new ConversationClient({ client: testEnv.client, conversationId: id, taskQueue: '-' });
        const state = await conv.state();
        assert.equal(state.archived, 2 * ROUNDS, `conversation ${c} finished`);
        const key = conversationWorkflowId(id);
        const archived = await archive.readAll(key);
        assert.deepEqual(
          archived.map((m) => [m.seq, m.revision, m.message]),
          Array.from({ length: 2 * ROUNDS }, (_, n) => [n, 0, messageOf(c, n)]),
          `conversation ${c}: every message exactly once, in order, never revised`
        );
        // Each fold the workflow applied or tried is recorded once under its number, as the workflow holds it. A
        // workflow task the killed worker began (its local activity wrote a record) runs again on the other worker
        // with a new task time, so such a record may carry a superseded revision; a message never does.
        const recorded = await archive.folds(key);
        assert.deepEqual(recorded, await conv.folds());
        const superseded = await archive.superseded(key);
        assert.deepEqual(
          superseded.filter((r) => r.kind === 'message'),
          []
        );
        revisedFolds += superseded.length;
        folds += recorded.length;
      }
      assert.ok(folds >= CONVERSATIONS, `conversations folded (${folds} folds)`);
      console.log(`      ${folds} folds, ${revisedFolds} fold records rewritten after the kill`);
    } finally {
      await archive.close();
      await Promise.all(workers.map(killWorker));
    }
  });
});

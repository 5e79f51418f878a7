import { strict as assert } from 'node:assert';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createActivities } from '../../src/activities';
import type { ConversationArchive } from '../../src/archive/archive';
import type { RecallResult } from '../../src/archive/recall';
import { PostgresArchive } from '../../src/archive/postgres-archive';
import { SqliteArchive } from '../../src/archive/sqlite-archive';
import { ConversationClient } from '../../src/client/conversation-client';
import { uniqueConversationId } from '../support/conversation';
import { testCipher } from '../support/archive-keys';
import { freshDatabase } from '../support/postgres';
import { measureRecall } from '../support/recall-measure';
import { withWorker } from '../support/temporal';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';

const SESSION = 'mini-swe-agent-deepseek-django__django-11797';
const BUDGET = 5000;

/** A worker on `archive`, and a client of a new conversation that reads the same archive. */
async function withRecallConversation<T>(
  archive: ConversationArchive,
  fn: (conv: ConversationClient) => Promise<T>
): Promise<T> {
  return withWorker({ activities: createActivities({ archive }) }, ({ env, taskQueue }) =>
    fn(
      new ConversationClient({
        client: env.client,
        conversationId: uniqueConversationId('recall'),
        taskQueue,
        settings: { budget: BUDGET },
        archive,
      })
    )
  );
}

const drivers: [string, () => Promise<ConversationArchive>][] = [
  [
    'sqlite',
    () => Promise.resolve(SqliteArchive.open({ path: join(mkdtempSync(join(tmpdir(), 'dc-recall-')), 'a.sqlite') })),
  ],
  ['postgres', async () => PostgresArchive.open({ url: await freshDatabase('recall') })],
  // Encryption at rest: the same recall through the blind index and encrypted bodies.
  [
    'sqlite, encrypted',
    () =>
      Promise.resolve(
        SqliteArchive.open({
          path: join(mkdtempSync(join(tmpdir(), 'dc-recall-')), 'a.sqlite'),
          cipher: testCipher('k1'),
        })
      ),
  ],
  [
    'postgres, encrypted',
    async () => PostgresArchive.open({ url: await freshDatabase('recall_encrypted'), cipher: testCipher('k1') }),
  ],
];

for (const [driver, open] of drivers) {
  describe(`recall through a conversation (${driver})`, function () {
    this.timeout(900_000);

    it('after 20 folds of a corpus session, every identifier of a folded message and every pointer is recalled, and answerRecall answers', async () => {
      const archive = await open();
      try {
        const { m, answers } = await withRecallConversation(archive, async (conv) => ({
          m: await measureRecall(conv, SESSION, BUDGET),
          // The model's call as the OpenAI SDK returns it, answered in the conversation's format (chat).
          answers: await conv.answerRecall({
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 'c9', type: 'function', function: { name: 'recall', arguments: '{"query":"(→ #5)"}' } }],
          }),
        }));
        assert.equal(answers.length, 1);
        const answer = answers[0] as { role: string; tool_call_id: string; content: string };
        assert.equal(answer.role, 'tool');
        assert.equal(answer.tool_call_id, 'c9');
        assert.deepEqual(
          (JSON.parse(answer.content) as RecallResult).matches.map((x) => x.seq),
          [5]
        );
        if (process.env.DC_RECALL_RESULT) writeFileSync(process.env.DC_RECALL_RESULT, JSON.stringify(m, null, 1));
        console.log(JSON.stringify({ ...m, missing: m.missing.slice(0, 10) }));
        assert.ok(m.folds >= 20, `only ${m.folds} folds`);
        for (const [kind, c] of Object.entries(m.identifiers)) assert.ok(c.total > 0, `no ${kind} identifiers folded`);
        assert.ok(m.pointers.total > 0, 'the summaries printed no pointers');
        assert.deepEqual(m.missing, []);
      } finally {
        await archive.close();
      }
    });
  });
}

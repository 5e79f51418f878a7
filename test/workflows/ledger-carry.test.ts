import { strict as assert } from 'node:assert';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Context } from '@temporalio/activity';
import { createActivities } from '../../src/activities';
import type { SummarizeFoldInput, SummarizeFoldResult } from '../../src/activities/types';
import { SqliteArchive } from '../../src/archive/sqlite-archive';
import { ConversationClient } from '../../src/client/conversation-client';
import { summaryKey } from '../../src/core/fold/state-ledger';
import { isMarkedSummary } from '../../src/core/messages/text';
import { uniqueConversationId } from '../support/conversation';
import { driveConversation } from '../support/drive';
import { withWorker } from '../support/temporal';

const RULE =
  'Never run the schema migration against the reporting replica, because its nightly export locks the same tables and the two deadlock.';

/** A session: the task, the rule, then turns long enough to fold several times at the budget below. */
function session(): unknown[] {
  const out: unknown[] = [
    { role: 'user', content: 'Move the orders service to the new database cluster.' },
    { role: 'assistant', content: 'Starting with an inventory of the tables.' },
    { role: 'user', content: RULE },
    { role: 'assistant', content: 'Understood.' },
  ];
  for (let k = 0; k < 60; k++) {
    out.push({
      role: 'user',
      content: `Step ${k}: copy table batch ${k}. ${'Check the row counts again. '.repeat(12)}`,
    });
    out.push({ role: 'assistant', content: `Batch ${k} copied. ${'The counts match on both sides. '.repeat(12)}` });
  }
  return out;
}

describe('the state ledger as workflow state', function () {
  this.timeout(300_000);

  it('carries each fold’s ledger to the next, across continue-as-new, and keeps the rule whole', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'dc-ledger-'));
    const archive = SqliteArchive.open({ path: join(dataDir, 'archive.sqlite') });
    const activities = createActivities({ archive });
    const calls: { runId: string; input: SummarizeFoldInput; result: SummarizeFoldResult }[] = [];
    const spied = {
      ...activities,
      async summarizeFold(input: SummarizeFoldInput): Promise<SummarizeFoldResult> {
        const result = await activities.summarizeFold(input);
        calls.push({ runId: Context.current().info.workflowExecution?.runId ?? '', input, result });
        return result;
      },
    };
    try {
      await withWorker({ activities: spied }, async ({ env, taskQueue }) => {
        const conv = new ConversationClient({
          client: env.client,
          conversationId: uniqueConversationId('ledger-carry'),
          taskQueue,
          settings: { budget: 3000 },
          limits: { maxUpdatesPerRun: 10 },
        });
        await driveConversation(conv, session());
        const state = await conv.state();
        assert.ok(state.continuedAsNew >= 2, `expected several runs, got ${state.continuedAsNew + 1}`);
        const ok = calls.filter((c) => c.result.ok);
        assert.ok(ok.length >= 3, `expected several folds, got ${ok.length}`);
        assert.equal(ok[0]!.input.ledger, undefined, 'the first fold has nothing to carry');
        let acrossRuns = 0;
        for (let k = 1; k < ok.length; k++) {
          const before = ok[k - 1]!.result;
          assert.ok(before.ok && before.carry && before.summary.kind === 'text');
          assert.equal(before.carry.summaryKey, summaryKey(before.summary.text), 'bound to the summary it came with');
          assert.deepEqual(ok[k]!.input.ledger, before.carry, `fold ${k + 1} merges the ledger fold ${k} returned`);
          if (ok[k]!.runId !== ok[k - 1]!.runId) acrossRuns += 1;
        }
        assert.ok(acrossRuns >= 1, 'a ledger crossed a continue-as-new');
        const last = ok[ok.length - 1]!.result;
        assert.ok(last.ok && last.carry?.ledger.entries.some((e) => e.text === RULE && !e.pointer));
        const summary = (await conv.context()).messages.find(
          (m) =>
            typeof (m as { content?: unknown }).content === 'string' &&
            isMarkedSummary((m as { content: string }).content)
        ) as { content: string } | undefined;
        assert.ok(summary?.content.includes(RULE), 'the rule is in the summary, whole');
      });
    } finally {
      await archive.close();
    }
  });
});

import { strict as assert } from 'node:assert';
import { workflowMetadataQuery } from '@temporalio/workflow';
import { ConversationClient } from '../../src/client/conversation-client';
import {
  conversationBudgetKey,
  conversationFoldsKey,
  conversationStatusKey,
  conversationTokensKey,
} from '../../src/visibility/search-attributes';
import { corpusConversation } from '../support/corpus';
import { driveConversation } from '../support/drive';
import { uniqueConversationId, withConversationWorker } from '../support/conversation';

/** Visibility is eventually consistent: polls `fn` until it returns a value. */
async function eventually<T>(fn: () => Promise<T | undefined>, what: string, ms = 20_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await fn();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('what the Temporal UI shows of a conversation', function () {
  this.timeout(300_000);

  it('current details, static summary, activity summaries and search attributes, read back through the client', async () => {
    const { messages } = corpusConversation('tau2-bench-gpt41-airline-task18');
    const budget = 8000;
    await withConversationWorker(async ({ env, open }) => {
      const id = uniqueConversationId('ui');
      const conv = open(id, { budget });
      await driveConversation(conv, messages);
      const view = await conv.state();
      assert.ok(view.folds >= 2, `expected folds, got ${view.folds}`);
      const handle = env.client.workflow.getHandle(conv.workflowId);

      // Current details: what the UI's "Current details" panel reads (a query; no history event).
      const metadata = await handle.query(workflowMetadataQuery);
      const details = metadata.currentDetails ?? '';
      assert.match(details, new RegExp(`conversation\\*\\* \`${id}\``));
      const tokens = view.tokens.toString().replace(/\B(?=(\d{3})+(?!\d))/g, ' ');
      assert.ok(details.includes(`**tokens** ${tokens} / 8 000`), details);
      assert.ok(details.includes(`**folds** ${view.folds}`), details);
      const folds = await conv.folds();
      const last = folds[folds.length - 1]!;
      assert.match(
        details,
        new RegExp(`\\*\\*last fold\\*\\* #${last.number}: [\\d ]+ → [\\d ]+ tokens, \\d+ messages folded`)
      );

      // Static summary naming the conversation.
      const description = await handle.describe();
      assert.equal(await description.staticSummary(), `Conversation ${id}`);

      // Activity summaries in history: what each call does.
      const history = await handle.fetchHistory();
      const summaries: string[] = [];
      for (const e of history.events ?? []) {
        const data = e.userMetadata?.summary?.data;
        if (data) summaries.push(JSON.parse(Buffer.from(data).toString('utf8')) as string);
      }
      assert.ok(
        summaries.some((s) => /^summarize \d+ messages, [\d ]+ tokens$/.test(s)),
        `activity summaries: ${summaries.join(' | ')}`
      );
      assert.ok(summaries.some((s) => /^ingest \d+ messages$/.test(s)));

      // Search attributes: set on the last fold; described and found by a list query.
      const sa = description.typedSearchAttributes;
      assert.equal(sa.get(conversationFoldsKey), view.folds);
      assert.equal(sa.get(conversationBudgetKey), budget);
      assert.equal(sa.get(conversationStatusKey), 'active');
      assert.ok((sa.get(conversationTokensKey) ?? 0) > 0);
      const query = `WorkflowId = '${conv.workflowId}' AND ConversationFolds >= 2 AND ConversationState = 'active'`;
      const found = await eventually(async () => {
        for await (const w of env.client.workflow.list({ query })) return w;
        return undefined;
      }, 'the list query to find the conversation');
      assert.equal(found.workflowId, conv.workflowId);

      // Close: the state attribute says so.
      await conv.close();
      await handle.result();
      const closed = await handle.describe();
      assert.equal(closed.typedSearchAttributes.get(conversationStatusKey), 'closed');
      assert.equal(closed.typedSearchAttributes.get(conversationTokensKey), view.tokens);
    });
  });

  it('keeps search attributes across continue-as-new, and a conversation started without them runs as before', async () => {
    const { messages } = corpusConversation('tau-bench-gpt4o-airline-task2');
    await withConversationWorker(async ({ env, open, taskQueue }) => {
      const conv = open(uniqueConversationId('ui-can'), { budget: 6000 }, { maxUpdatesPerRun: 12 });
      await driveConversation(conv, messages.slice(0, 40));
      const view = await conv.state();
      assert.ok(view.continuedAsNew >= 2, `expected hand-overs, got ${view.continuedAsNew}`);
      const description = await env.client.workflow.getHandle(conv.workflowId).describe();
      const sa = description.typedSearchAttributes;
      assert.equal(sa.get(conversationBudgetKey), 6000);
      assert.ok((sa.get(conversationTokensKey) ?? 0) > 0, 'the run that handed over set its tokens');
      assert.equal(sa.get(conversationStatusKey), 'active');
      // The static summary is the first run's start option (continue-as-new cannot carry it); the current details
      // name the conversation in every run.
      const details = (await env.client.workflow.getHandle(conv.workflowId).query(workflowMetadataQuery))
        .currentDetails;
      assert.ok(details?.includes(`\`${conv.workflowId.replace(/^conversation-/, '')}\``), details ?? '');

      const plain = new ConversationClient({
        client: env.client,
        conversationId: uniqueConversationId('ui-plain'),
        taskQueue,
        settings: { budget: 6000 },
        searchAttributes: false,
      });
      await driveConversation(plain, messages);
      assert.ok((await plain.folds()).length >= 1);
      const bare = await env.client.workflow.getHandle(plain.workflowId).describe();
      assert.equal(bare.typedSearchAttributes.get(conversationFoldsKey), undefined);
    });
  });
});

import { strict as assert } from 'node:assert';
import { WorkflowNotFoundError } from '@temporalio/client';
import { createActivities } from '../../src/activities';
import { ConversationClient } from '../../src/client/conversation-client';
import { uniqueConversationId } from '../support/conversation';
import { describeOnEachArchive } from '../support/archive-drivers';
import { runCli } from '../support/processes';
import { withWorker } from '../support/temporal';

const turn = (planted: string, i: number) => [
  { role: 'user', content: `turn ${i}: ${planted} ${'please check the order status again '.repeat(12)}` },
  { role: 'assistant', content: `answer ${i}: ${'the order ships on Tuesday from the north depot '.repeat(12)}` },
];

describeOnEachArchive('deleting a conversation', (name, under) => {
  it('leaves no message text in the archive, Temporal history, visibility or export; a second delete is a no-op', async () => {
    const { archive, driver } = under();
    await withWorker({ activities: createActivities({ archive }) }, async ({ env, taskQueue }) => {
      const id = uniqueConversationId(`delete-${name}`);
      const planted = `planted-${name}-${process.pid}-${Date.now().toString(36)}`;
      const conv = new ConversationClient({
        client: env.client,
        conversationId: id,
        taskQueue,
        settings: { budget: 3000 },
        limits: { maxUpdatesPerRun: 10 }, // several runs (continue-as-new), every one of them deleted
      });
      for (let i = 0; i < 14; i++) await conv.prepare(turn(planted, i));
      const state = await conv.state();
      assert.ok(state.folds >= 1 && state.continuedAsNew >= 1, `folded and continued: ${JSON.stringify(state)}`);
      const before = await archive.summary(conv.workflowId);
      assert.ok((await driver.holding(planted)) > 0, 'the planted text is at rest before the deletion');
      const visible = env.client.workflow.list({ query: `WorkflowId = '${conv.workflowId}'` });
      const runsBefore: string[] = [];
      for await (const e of visible) runsBefore.push(e.runId);
      assert.ok(runsBefore.length >= 2, `several runs: ${runsBefore.length}`);

      const deleted = await conv.delete();
      assert.deepEqual(
        { messages: deleted.messages, folds: deleted.folds },
        { messages: before.messages, folds: before.folds }
      );
      assert.ok(deleted.runs >= runsBefore.length, `every run deleted: ${deleted.runs}`);

      // The archive: nothing by the interface, nothing at rest.
      assert.deepEqual(await archive.summary(conv.workflowId), {
        messages: 0,
        lastSeq: null,
        folds: 0,
        superseded: 0,
      });
      assert.equal(await driver.holding(planted), 0, 'no trace of the planted text at rest');
      // Temporal: no execution to describe, no history to fetch, nothing listed.
      const handle = env.client.workflow.getHandle(conv.workflowId);
      await assert.rejects(handle.describe(), WorkflowNotFoundError);
      await assert.rejects(handle.fetchHistory(), /NOT_FOUND: workflow not found/);
      for (const runId of runsBefore) {
        await assert.rejects(env.client.workflow.getHandle(conv.workflowId, runId).describe(), WorkflowNotFoundError);
      }
      const after: unknown[] = [];
      for await (const e of env.client.workflow.list({ query: `WorkflowId = '${conv.workflowId}'` })) after.push(e);
      assert.deepEqual(after, []);
      // export finds it in neither place.
      const exported = await runCli(['export', '--conversation', id], {
        ...driver.cliEnv,
        TEMPORAL_ADDRESS: env.address,
        TEMPORAL_TASK_QUEUE: taskQueue,
      });
      assert.equal(exported.code, 2, exported.stderr);
      assert.match(exported.stderr, new RegExp(`no conversation '${id}'`));
      assert.ok(!exported.stdout.includes(planted));

      // Again: nothing to erase; the run it started for that is deleted too.
      const again = await conv.delete();
      assert.deepEqual({ ...again, runs: 0 }, { messages: 0, folds: 0, superseded: 0, runs: 0 });
      await assert.rejects(handle.describe(), WorkflowNotFoundError);
      // The id is free: the same client starts a new, empty conversation.
      const fresh = await conv.prepare([{ role: 'user', content: 'a new start' }]);
      assert.equal(fresh.messages.length, 1);
      assert.equal((await archive.summary(conv.workflowId)).messages, 1);
      await conv.delete();
    });
  });

  it('deletes a closed conversation, through the CLI', async () => {
    const { archive, driver } = under();
    await withWorker({ activities: createActivities({ archive }) }, async ({ env, taskQueue }) => {
      const id = uniqueConversationId(`delete-closed-${name}`);
      const planted = `planted-closed-${name}-${process.pid}-${Date.now().toString(36)}`;
      const conv = new ConversationClient({ client: env.client, conversationId: id, taskQueue });
      await conv.prepare(turn(planted, 0));
      await conv.close();
      await env.client.workflow.getHandle(conv.workflowId).result();
      const cliEnv = { ...driver.cliEnv, TEMPORAL_ADDRESS: env.address, TEMPORAL_TASK_QUEUE: taskQueue };
      const out = await runCli(['delete', '--conversation', id], cliEnv);
      assert.equal(out.code, 0, out.stderr);
      const printed = JSON.parse(out.stdout) as { workflowId: string; erased: object; runs: number };
      assert.equal(printed.workflowId, conv.workflowId);
      assert.deepEqual(printed.erased, { messages: 2, folds: 0, superseded: 0 });
      assert.equal(printed.runs, 2, 'the closed run and the one the deletion ran in');
      assert.equal(await driver.holding(planted), 0);
      await assert.rejects(env.client.workflow.getHandle(conv.workflowId).describe(), WorkflowNotFoundError);
    });
  });
});

import { strict as assert } from 'node:assert';
import { WorkflowNotFoundError } from '@temporalio/client';
import { createActivities } from '../../src/activities';
import { ConversationClient } from '../../src/client/conversation-client';
import { conversationWorkflowId } from '../../src/contract/definitions';
import { startRetentionTimer, sweepRetention, type SweepOutcome } from '../../src/server/retention-sweep';
import { describeOnEachArchive } from '../support/archive-drivers';
import { uniqueConversationId } from '../support/conversation';
import { sharedTestEnv, withWorker } from '../support/temporal';

const HOUR = 3_600_000;

describeOnEachArchive('retention of closed conversations', (name, under) => {
  it('purges a conversation closed past the period and an orphaned archive; keeps running and recent ones', async () => {
    const { archive, driver } = under();
    await withWorker({ activities: createActivities({ archive }) }, async ({ env, taskQueue }) => {
      const planted = `planted-retention-${name}-${process.pid}-${Date.now().toString(36)}`;
      const message = (who: string) => [{ role: 'user', content: `${who}: ${planted}` }];
      const open = (label: string) =>
        new ConversationClient({ client: env.client, conversationId: uniqueConversationId(label), taskQueue });
      const closed = open('retention-closed');
      await closed.prepare(message('closed'));
      await closed.close();
      await env.client.workflow.getHandle(closed.workflowId).result();
      const running = open('retention-running');
      await running.prepare(message('running'));
      // An archive whose workflow Temporal no longer knows (its namespace retention removed it).
      const orphan = conversationWorkflowId(uniqueConversationId('retention-orphan'));
      await archive.append(orphan, 0, message('orphan'));
      const common = { archive, service: env.client.workflowService, namespace: env.namespace ?? 'default' };

      // Within the period: nothing is touched.
      const early = await sweepRetention({ ...common, retentionMs: HOUR });
      assert.deepEqual(early, { purged: 0, kept: 0, failed: 0, firstError: null });
      assert.equal((await archive.summary(closed.workflowId)).messages, 1);
      assert.equal((await env.client.workflow.getHandle(closed.workflowId).describe()).status.name, 'COMPLETED');

      // Past the period (the clock moved on by it): the closed conversation and the orphan go, the running one stays.
      const later = (): number => Date.now() + HOUR + 60_000;
      const swept = await sweepRetention({ ...common, retentionMs: HOUR, now: later });
      assert.deepEqual(swept, { purged: 2, kept: 1, failed: 0, firstError: null });
      assert.equal((await archive.summary(closed.workflowId)).messages, 0);
      assert.equal((await archive.summary(orphan)).messages, 0);
      await assert.rejects(env.client.workflow.getHandle(closed.workflowId).describe(), WorkflowNotFoundError);
      assert.equal((await archive.summary(running.workflowId)).messages, 1);
      assert.equal((await running.state()).closed, false);
      assert.equal(await driver.holding(`closed: ${planted}`), 0);
      assert.equal(await driver.holding(`orphan: ${planted}`), 0);
      assert.equal(await driver.holding(`running: ${planted}`), 1);

      // Idempotent: a second sweep (another worker's, say) finds only the running one.
      assert.deepEqual(await sweepRetention({ ...common, retentionMs: HOUR, now: later }), {
        purged: 0,
        kept: 1,
        failed: 0,
        firstError: null,
      });
      await running.delete();
    });
  });

  it('sweeps on a timer until stopped, and refuses a period that is not positive', async () => {
    const { archive } = under();
    const env = await sharedTestEnv();
    const common = { archive, service: env.client.workflowService, namespace: env.namespace ?? 'default' };
    const reports: (SweepOutcome | Error)[] = [];
    const timer = startRetentionTimer({ ...common, retentionMs: HOUR }, 100, (o) => reports.push(o));
    while (reports.length < 3) await new Promise((resolve) => setTimeout(resolve, 50));
    await timer.stop();
    const seen = reports.length;
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(reports.length, seen, 'no sweep after stop');
    assert.ok(reports.every((r) => !(r instanceof Error)));
    await assert.rejects(sweepRetention({ ...common, retentionMs: 0 }), /retentionMs must be a positive number/);
  });
});

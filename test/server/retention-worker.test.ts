import { strict as assert } from 'node:assert';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WorkflowNotFoundError } from '@temporalio/client';
import { SqliteArchive } from '../../src/archive/sqlite-archive';
import { ConversationClient } from '../../src/client/conversation-client';
import { uniqueConversationId } from '../support/conversation';
import { startProductionWorker } from '../support/production-worker';
import { sharedTestEnv } from '../support/temporal';

describe('the production worker purges closed conversations past retention.closedDays', function () {
  this.timeout(240_000);

  it('sweeps at start: a conversation closed longer ago than the period is gone, a running one stays', async () => {
    const env = await sharedTestEnv();
    const dir = mkdtempSync(join(tmpdir(), 'dc-retention-'));
    const taskQueue = `retention-worker-${process.pid}`;
    const config = [
      `temporal: { address: '${env.address}', namespace: '${env.namespace ?? 'default'}', taskQueue: '${taskQueue}' }`,
      `archive: { driver: sqlite, path: '${join(dir, 'archive.sqlite')}' }`,
      // 0.00003 days: 2.6 s.
      'retention: { closedDays: 0.00003, sweepMinutes: 1 }',
      '',
    ].join('\n');
    const open = (label: string) =>
      new ConversationClient({ client: env.client, conversationId: uniqueConversationId(label), taskQueue });
    const closed = open('retention-worker-closed');
    const running = open('retention-worker-running');
    let worker = await startProductionWorker(dir, config, {});
    try {
      await closed.prepare([{ role: 'user', content: 'closed soon' }]);
      await closed.close();
      await env.client.workflow.getHandle(closed.workflowId).result();
      await running.prepare([{ role: 'user', content: 'still talking' }]);
      await new Promise((resolve) => setTimeout(resolve, 4000));
      // The next sweep is a minute away: a restarted worker sweeps at once.
      await worker.stop();
      worker = await startProductionWorker(dir, config, {});
      const deadline = Date.now() + 60_000;
      while (!/"purged":1/.test(worker.output()) && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 200));
      assert.match(worker.output(), /retention sweep.*"purged":1.*"kept":1/);
      await assert.rejects(env.client.workflow.getHandle(closed.workflowId).describe(), WorkflowNotFoundError);
      assert.equal((await running.state()).closed, false);
      await running.delete();
    } finally {
      await worker.stop();
    }
    const archive = SqliteArchive.open({ path: join(dir, 'archive.sqlite'), readOnly: true });
    try {
      assert.equal((await archive.summary(closed.workflowId)).messages, 0);
    } finally {
      await archive.close();
    }
  });
});

import { strict as assert } from 'node:assert';
import { createActivities } from '../../src/activities';
import { SqliteArchive } from '../../src/archive/sqlite-archive';
import { loadConfig } from '../../src/config/load-config';
import { createConversationWorker, defaultWorkerTuning } from '../../src/server/conversation-worker';
import { sharedTestEnv, workflowBundle } from '../support/temporal';

describe('createConversationWorker (the one worker factory)', function () {
  this.timeout(120_000);

  it("defaults to the configuration's documented worker: section", () => {
    assert.deepEqual(defaultWorkerTuning(), loadConfig('/nonexistent/temporal.yaml', {}).worker);
  });

  it('applies the tuning it is given, and the defaults for the rest', async () => {
    const env = await sharedTestEnv();
    const archive = SqliteArchive.open({ path: ':memory:' });
    const worker = await createConversationWorker({
      connection: env.nativeConnection,
      namespace: env.namespace ?? 'default',
      taskQueue: `factory-${process.pid}`,
      workflows: { workflowBundle: await workflowBundle() },
      activities: createActivities({ archive }),
      tuning: { maxCachedWorkflows: 7, heartbeatThrottleMs: 750 },
    });
    const defaults = defaultWorkerTuning();
    assert.equal(worker.options.maxCachedWorkflows, 7);
    assert.equal(worker.options.maxHeartbeatThrottleIntervalMs, 750);
    assert.equal(worker.options.workflowThreadPoolSize, defaults.workflowThreads);
    assert.equal(worker.options.stickyQueueScheduleToStartTimeoutMs, defaults.stickyScheduleToStartMs);
    // A worker holds its connection until it has run: run it for no work so the shared server can stop.
    await worker.runUntil(Promise.resolve());
    await archive.close();
  });
});

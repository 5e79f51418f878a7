import { strict as assert } from 'node:assert';
import { assertNoTaskFailures, expectTaskFailure, findTaskFailures } from '../support/task-failures';
import { withWorker } from '../support/temporal';

/** Polls `check` until it returns true (the server records the failed task a moment after the worker reports it). */
async function eventually(what: string, check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe('the whole-suite WorkflowTaskFailed check (test/support/task-failures.ts)', function () {
  this.timeout(120_000);

  it('reports a workflow whose task failed, by id, and the suite check skips only the deliberate one', async () => {
    await withWorker({}, async ({ env, taskQueue }) => {
      // A workflow type the bundle does not export: the worker fails its first task (and every retry).
      const workflowId = `task-failure-check-${process.pid}-${Date.now()}`;
      expectTaskFailure(workflowId);
      const handle = await env.client.workflow.start('noSuchWorkflowType', { taskQueue, workflowId, args: [] });
      try {
        const query = `WorkflowId = '${workflowId}'`;
        await eventually('the failed task', async () => {
          const history = await handle.fetchHistory();
          return (history.events ?? []).some((e) => e.workflowTaskFailedEventAttributes);
        });
        const found = await findTaskFailures(env.client, { query, skip: new Set() });
        assert.equal(found.runs, 1);
        assert.equal(found.failures.length, 1);
        assert.equal(found.failures[0]!.workflowId, workflowId);
        assert.equal(found.failures[0]!.workflowType, 'noSuchWorkflowType');
        assert.match(found.failures[0]!.message, /noSuchWorkflowType/);
        await assert.rejects(
          assertNoTaskFailures(env.client, { query, skip: new Set() }),
          (err: Error) => err.message.includes(workflowId) && /WorkflowTaskFailed/.test(err.message)
        );
        // The suite check (default skip list) leaves out only this deliberate failure.
        assert.equal((await findTaskFailures(env.client, { query })).runs, 0);
      } finally {
        await handle.terminate('the task-failure check saw it');
      }
    });
  });
});

// Issue 22 item 16: a workflow task carrying a prepare failed with BAD_UPDATE_WORKFLOW_EXECUTION_MESSAGE
// ("ProtocolMessageCommand referenced absent message ID …/request/complete"), the server dropped the update, and the
// call never answered. Here a stand-in worker completes the task that way (test/support/bad-update-task.ts); the
// client must still answer within its deadline, with the call's messages stored exactly once.
import { strict as assert } from 'node:assert';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { temporal } from '@temporalio/proto';
import { createActivities } from '../../src/activities';
import { SqliteArchive } from '../../src/archive/sqlite-archive';
import { ConversationUnavailableError } from '../../src/client/errors';
import { failTaskWithAbsentUpdateMessage } from '../support/bad-update-task';
import { spawnWorkerSlot, writeWorkflowBundle, type WorkerSlot } from '../support/crash';
import { conversationClient, uniqueConversationId } from '../support/conversation';
import { expectTaskFailure } from '../support/task-failures';
import { sharedTestEnv, withWorker } from '../support/temporal';

const BAD_UPDATE =
  temporal.api.enums.v1.WorkflowTaskFailedCause.WORKFLOW_TASK_FAILED_CAUSE_BAD_UPDATE_WORKFLOW_EXECUTION_MESSAGE;

describe('an update whose workflow task failed with an absent protocol message', function () {
  this.timeout(120_000);

  it('is answered within retryDeadlineMs and stored once, after a worker takes the conversation over', async () => {
    const env = await sharedTestEnv();
    const taskQueue = `stuck-update-${process.pid}-${Date.now()}`;
    const archive = SqliteArchive.open({ path: join(mkdtempSync(join(tmpdir(), 'dc-stuck-')), 'archive.sqlite') });
    const deadlineMs = 20_000;
    const conv = conversationClient(env.client, taskQueue, uniqueConversationId('stuck-update'), {
      retryDeadlineMs: deadlineMs,
      workflowTaskTimeoutMs: 2000,
    });
    expectTaskFailure(conv.workflowId);
    try {
      const message = { role: 'user', content: 'Book the 9:40 to Lyon, please.' };
      const started = Date.now();
      const call = conv.prepare([message]);
      call.catch(() => undefined);
      // No worker polls yet: the stand-in takes the first task (the start and the update) and fails it.
      const sabotaged = await failTaskWithAbsentUpdateMessage(env.client, taskQueue);
      assert.equal(sabotaged.workflowId, conv.workflowId);
      assert.equal(sabotaged.updateIds.length, 1);
      const prepared = await withWorker({ taskQueue, activities: createActivities({ archive }) }, () => call);
      const elapsed = Date.now() - started;
      assert.ok(elapsed < deadlineMs + 3000, `answered within the deadline (${elapsed} ms)`);
      assert.deepEqual(prepared.messages, [message]);
      const archived = (await archive.readAll(conv.workflowId)).map((a) => a.message);
      assert.deepEqual(archived, [message], 'stored exactly once');
      // The reproduction took the path of the trials: the task failed with that cause.
      const history = await env.client.workflow.getHandle(conv.workflowId).fetchHistory();
      const failed = (history.events ?? []).map((e) => e.workflowTaskFailedEventAttributes).filter((a) => a);
      assert.equal(failed.length, 1);
      assert.equal(failed[0]!.cause, BAD_UPDATE);
      assert.match(
        failed[0]!.failure?.message ?? '',
        /ProtocolMessageCommand referenced absent message ID .*\/request\/complete/
      );
    } finally {
      await env.client.workflow
        .getHandle(conv.workflowId)
        .terminate('test over')
        .catch(() => undefined);
      await archive.close();
    }
  });

  it('stores the next call when the one before ended unknown while the server still held its update', async function () {
    this.timeout(180_000);
    // No worker: the first prepare's update waits at the server past the client's deadline (stored 'unknown'), and
    // lands once a worker comes. The next call used to ask the writer sequence, hear "not applied yet" (the worker
    // had not run the update when it answered), reuse the number, and be skipped by the workflow as a retry: a
    // success with nothing stored.
    const env = await sharedTestEnv();
    const dir = mkdtempSync(join(tmpdir(), 'dc-held-'));
    const taskQueue = `held-update-${process.pid}-${Date.now()}`;
    const conv = conversationClient(env.client, taskQueue, uniqueConversationId('held-update'), {
      retryDeadlineMs: 15_000,
    });
    let worker: WorkerSlot | undefined;
    try {
      const first = { role: 'user', content: 'Which gate does the 9:40 to Lyon leave from?' };
      const second = { role: 'user', content: 'And is there a lounge near it?' };
      const unknown = await conv.prepare([first]).catch((err: unknown) => err);
      assert.ok(unknown instanceof ConversationUnavailableError, String(unknown));
      assert.equal(unknown.stored, 'unknown');
      worker = spawnWorkerSlot({
        TEMPORAL_ADDRESS: env.address,
        TASK_QUEUE: taskQueue,
        ARCHIVE_DRIVER: 'sqlite',
        ARCHIVE_PATH: join(dir, 'archive.sqlite'),
        WORKFLOW_BUNDLE: await writeWorkflowBundle(dir),
      });
      const prepared = await conv.prepare([second]);
      assert.deepEqual(prepared.messages, [first, second], 'both calls stored, in order');
      const archive = SqliteArchive.open({ path: join(dir, 'archive.sqlite') });
      try {
        assert.deepEqual(
          (await archive.readAll(conv.workflowId)).map((a) => a.message),
          [first, second]
        );
      } finally {
        await archive.close();
      }
    } finally {
      worker?.child.kill('SIGKILL');
    }
  });
});

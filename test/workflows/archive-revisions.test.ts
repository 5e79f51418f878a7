import { strict as assert } from 'node:assert';
import { randomUUID } from 'node:crypto';
import { temporal } from '@temporalio/proto';
import { runExport } from '../../src/cli/export';
import { runInspect } from '../../src/cli/inspect';
import { conversationWorkflowId } from '../../src/contract/definitions';
import { uniqueConversationId, withConversationWorker } from '../support/conversation';

const system = { role: 'system', content: 'You are a careful assistant.' };
const user = (text: string) => ({ role: 'user', content: text });
const assistant = (text: string) => ({ role: 'assistant', content: text });

describe('the archive after `temporal workflow reset`', function () {
  this.timeout(120_000);

  it('stores the new timeline as superseding revisions, and inspect and export report the old ones', async () => {
    await withConversationWorker(async ({ env, open, archive, dataDir }) => {
      const id = uniqueConversationId('reset');
      const conv = open(id);
      await conv.prepare([system, user('first question')]);
      await conv.record(assistant('first answer'));
      await conv.prepare([user('second question')]);
      const key = conversationWorkflowId(id);
      assert.equal((await archive.summary(key)).messages, 4);

      // Reset to just after the first update completed, dropping the later updates (not reapplied).
      const handle = env.client.workflow.getHandle(key);
      const { events } = await handle.fetchHistory();
      const firstUpdateDone = events!.find((e) => e.workflowExecutionUpdateCompletedEventAttributes)!.eventId!;
      const resetPoint = events!.find(
        (e) =>
          e.eventType === temporal.api.enums.v1.EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED &&
          Number(e.eventId) > Number(firstUpdateDone)
      )!.eventId!;
      const { runId } = await handle.describe();
      await env.client.workflowService.resetWorkflowExecution({
        namespace: env.namespace ?? 'default',
        workflowExecution: { workflowId: key, runId },
        workflowTaskFinishEventId: resetPoint,
        requestId: randomUUID(),
        reason: 'archive revision test',
        resetReapplyType: temporal.api.enums.v1.ResetReapplyType.RESET_REAPPLY_TYPE_NONE,
        resetReapplyExcludeTypes: [
          temporal.api.enums.v1.ResetReapplyExcludeType.RESET_REAPPLY_EXCLUDE_TYPE_SIGNAL,
          temporal.api.enums.v1.ResetReapplyExcludeType.RESET_REAPPLY_EXCLUDE_TYPE_UPDATE,
        ],
      });

      // The reset run goes on from two messages; the next numbers get new content.
      const after = open(id);
      assert.equal((await after.state()).archived, 2);
      await after.record(assistant('a different first answer'));
      await after.prepare([user('second question')]);
      assert.equal((await after.state()).archived, 4);

      const current = await archive.readAll(key);
      assert.deepEqual(
        current.map((m) => [m.seq, m.revision, m.message]),
        [
          [0, 0, system],
          [1, 0, user('first question')],
          [2, 1, assistant('a different first answer')],
          [3, 0, user('second question')],
        ]
      );

      const lines: string[] = [];
      const io = { stdout: (s: string) => lines.push(s), stderr: (s: string) => lines.push(`ERR ${s}`) };
      assert.equal(await runInspect(['--conversation', id, '--data', dataDir], io), 0);
      const inspected = JSON.parse(lines[0]!) as {
        workflowId: string;
        driver: string;
        archived: number;
        superseded: { kind: string; seq: number; revision: number; hash: string }[];
      };
      assert.equal(inspected.workflowId, key);
      assert.equal(inspected.driver, 'sqlite');
      assert.equal(inspected.archived, 4);
      assert.deepEqual(
        inspected.superseded.map((r) => [r.kind, r.seq, r.revision]),
        [['message', 2, 0]]
      );

      lines.length = 0;
      assert.equal(await runExport(['--conversation', id, '--data', dataDir, '--archive-only', '--lines'], io), 0);
      const exported = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
      assert.deepEqual(
        exported.filter((e) => e.kind === 'message').map((e) => e.message),
        current.map((m) => m.message)
      );
      assert.deepEqual(
        exported.filter((e) => e.kind === 'superseded').map((e) => [e.of, e.seq, e.value]),
        [['message', 2, assistant('first answer')]]
      );
    });
  });
});

import { strict as assert } from 'node:assert';
import { temporal } from '@temporalio/proto';
import { conversationWorkflowId, foldsQuery } from '../../../src/contract/definitions';
import { corpusConversation } from '../../support/corpus';
import { driveConversation } from '../../support/drive';
import { uniqueConversationId, withConversationWorker } from '../../support/conversation';

const { EventType } = temporal.api.enums.v1;

describe('fold records reach the archive through an ordinary activity', function () {
  this.timeout(300_000);

  it('schedules one recordFold activity per fold, from stored history, and no local write; the archive matches', async () => {
    await withConversationWorker(async ({ env, open, archive }) => {
      const id = uniqueConversationId('fold-record');
      const conv = open(id, { budget: 8000 });
      await driveConversation(conv, corpusConversation('tau2-bench-gpt41-airline-task18').messages);
      const key = conversationWorkflowId(id);
      const handle = env.client.workflow.getHandle(key);
      const folds = await handle.query(foldsQuery);
      assert.ok(folds.length >= 2, `the corpus session folded (${folds.length} folds)`);

      const { events } = await handle.fetchHistory();
      const scheduled = events!.filter(
        (e) =>
          e.eventType === EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED &&
          e.activityTaskScheduledEventAttributes?.activityType?.name === 'recordFold'
      );
      assert.equal(scheduled.length, folds.length, 'one scheduled recordFold per fold record');
      const markers = events!.filter((e) => e.eventType === EventType.EVENT_TYPE_MARKER_RECORDED);
      const text = (e: temporal.api.history.v1.IHistoryEvent): string =>
        JSON.stringify(
          Object.values(e.markerRecordedEventAttributes?.details ?? {}).map((p) =>
            Buffer.from(p.payloads?.[0]?.data ?? []).toString('utf8')
          )
        );
      assert.ok(
        markers.some((e) => text(e).includes('fold-record-activity')),
        'the patch marker is in the history'
      );
      assert.ok(!markers.some((e) => text(e).includes('recordFold')), 'no local activity wrote a fold record');

      const stored = await archive.folds(key);
      assert.deepEqual(stored, folds);
    });
  });
});

import { strict as assert } from 'node:assert';
import { temporal } from '@temporalio/proto';
import { conversationWorkflowId, foldsQuery } from '../../../src/contract/definitions';
import { corpusConversation } from '../../support/corpus';
import { driveConversation } from '../../support/drive';
import { uniqueConversationId, withConversationWorker } from '../../support/conversation';
import { foldAndReplay } from '../../support/fold-replay';
import { createActivities } from '../../../src/activities';
import type { RecordFoldInput } from '../../../src/activities/types';
import { SqliteArchive } from '../../../src/archive/sqlite-archive';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

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

  it('holds each record with the task times its write reported, also after a replay from history', async () => {
    // The server may store a retried or speculative workflow task with another start time than the worker was told,
    // so a replay can compute other times than the run that wrote the record (the cluster chaos suite saw a fold's
    // `startedAt` 469 ms apart between the state and the archive). Here the activity reports times a second earlier
    // than the ones the workflow computed, as history would hold them for such a run.
    const archive = SqliteArchive.open({ path: join(mkdtempSync(join(tmpdir(), 'dc-fold-times-')), 'a.sqlite') });
    const shift = 1000;
    const reported: RecordFoldInput['record'][] = [];
    const real = createActivities({ archive });
    const activities = {
      ...real,
      async recordFold(input: RecordFoldInput) {
        const record = {
          ...input.record,
          startedAt: input.record.startedAt - shift,
          finishedAt: input.record.finishedAt - shift,
        };
        reported.push(record);
        return real.recordFold({ ...input, record });
      },
    };
    try {
      // The replay computes the times anew, on a fresh worker whose activities report nothing shifted.
      const { held, replayed, workflowId } = await foldAndReplay('fold-times', activities, real);
      assert.ok(held.length >= 2, `the corpus session folded (${held.length} folds)`);
      assert.deepEqual(held, reported.slice(-held.length), 'the run holds the records as written');
      assert.deepEqual(await archive.folds(workflowId), reported);
      assert.deepEqual(replayed, held, 'a replay holds what was written, not what its own clock gives');
    } finally {
      await archive.close();
    }
  });
});

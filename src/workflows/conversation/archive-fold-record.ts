/**
 * Writes a conversation's fold record to the archive. Since the `fold-record-activity` patch it goes through an
 * ordinary activity: the server dispatches one only after the workflow task that scheduled it is stored in history,
 * so only a record the conversation kept is written, and every attempt writes the same one. A local activity runs
 * inside its workflow task instead: when the server loses that task (a speculative update task during a persistence
 * outage), the record the lost task built is written all the same, and can differ from the one the retried task
 * builds (other task times), so the archive could hold a fold the conversation never applied.
 */
import { patched, proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../../activities';
import type { FoldRecordTimes, RecordFoldInput } from '../../activities/types';
import { archiveActivityOptions } from '../shared/activity-options';
import { local } from './local-activities';

const archived = proxyActivities<Activities>(archiveActivityOptions);

/**
 * Stores `input.record` under the conversation's archive key; a run recorded before the patch keeps its local write.
 * @returns the record's task times as the write reported them (from history on a replay), or undefined when the
 *   result carries none (a history recorded before the activity returned them).
 */
export async function archiveFoldRecord(input: RecordFoldInput): Promise<FoldRecordTimes | undefined> {
  const written: unknown = patched('fold-record-activity')
    ? await archived.recordFold(input)
    : await local.recordFold(input);
  return timesOf(written, input.record.number);
}

function timesOf(written: unknown, number: number): FoldRecordTimes | undefined {
  if (typeof written !== 'object' || written === null) return undefined;
  const { number: n, startedAt, finishedAt } = written as Partial<FoldRecordTimes>;
  if (n !== number || !Number.isFinite(startedAt) || !Number.isFinite(finishedAt)) return undefined;
  return { number, startedAt: startedAt!, finishedAt: finishedAt! };
}

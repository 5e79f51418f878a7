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
import type { RecordFoldInput } from '../../activities/types';
import { archiveActivityOptions } from '../shared/activity-options';
import { local } from './local-activities';

const archived = proxyActivities<Activities>(archiveActivityOptions);

/** Stores `input.record` under the conversation's archive key; a run recorded before the patch keeps its local write. */
export async function archiveFoldRecord(input: RecordFoldInput): Promise<void> {
  if (patched('fold-record-activity')) await archived.recordFold(input);
  else await local.recordFold(input);
}

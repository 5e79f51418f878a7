/**
 * The conversation workflow's local activities: ingest, counting, the offline fallback summary (and fold records in
 * runs recorded before the `fold-record-activity` patch).
 */
import { proxyLocalActivities } from '@temporalio/workflow';
import type { Activities } from '../../activities';
import { localActivityOptions } from '../shared/activity-options';

export const local = proxyLocalActivities<Activities>(localActivityOptions);

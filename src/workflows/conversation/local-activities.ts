/** The conversation workflow's local activities (ingest, counting, fold records, the offline fallback summary). */
import { proxyLocalActivities } from '@temporalio/workflow';
import type { Activities } from '../../activities';
import { localActivityOptions } from '../shared/activity-options';

export const local = proxyLocalActivities<Activities>(localActivityOptions);

/** The conversation workflow's local activities (ingest, counting, fold records, the offline fallback summary). */
import { proxyLocalActivities, type LocalActivityOptions } from '@temporalio/workflow';
import type { Activities } from '../activities';

/** Short and idempotent: 30 s each, at most 5 attempts, invalid input not retried. */
export const localActivityOptions: LocalActivityOptions = {
  startToCloseTimeout: '30 seconds',
  retry: { maximumAttempts: 5, nonRetryableErrorTypes: ['InvalidInput'] },
};
export const local = proxyLocalActivities<Activities>(localActivityOptions);

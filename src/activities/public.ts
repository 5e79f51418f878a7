/**
 * The activities as a package entry (`durable-compaction/activities`): what a worker registers, either all of the
 * conversation workflow's (`createActivities`) or only the two the embedded `Compactor` calls.
 */
export { createActivities, type ActivityDeps, type Activities } from './index';
export { createCountTokensActivity, type CountTokensActivity } from './count-tokens';
export { createSummarizeActivity, type SummarizeActivityDeps } from './summarize';

/**
 * Workflow behaviour changes gated by `patched()`, so conversations started by older code (they run for days) replay
 * their recorded histories unchanged while new work takes the new behaviour. One function per change; each names its
 * patch id.
 */
import { patched } from '@temporalio/workflow';
import type { CompactionOptions } from '../core/plan/options';

/** The `rounds` policy folds on the round count without a min-fold floor (issue 9, item 7). */
export const ROUNDS_WITHOUT_MIN_FOLD = 'rounds-policy-without-min-fold-floor';

/**
 * Planning options as code before {@link ROUNDS_WITHOUT_MIN_FOLD} used them when replaying such a history: the
 * `rounds` policy then defaulted `minFoldTokens` to max(budget/8, 2 × emptySummaryTokens) like every policy.
 * @returns the options unchanged for new work or other policies.
 */
export function roundsFloorAsRecorded(options: CompactionOptions): CompactionOptions {
  if (options.policy !== 'rounds' || options.minFoldTokens !== undefined || patched(ROUNDS_WITHOUT_MIN_FOLD)) {
    return options;
  }
  const legacy = Math.max(Math.floor(options.budget / 8), 2 * (options.emptySummaryTokens ?? 20));
  return { ...options, minFoldTokens: legacy };
}

/** New settings (start input, `configure`) are checked together: a trigger above the fold target, … (issue 16). */
export const SETTINGS_TOGETHER = 'settings-checked-together';

/**
 * Workflow behaviour changes gated by `patched()`, so conversations started by older code (they run for days) replay
 * their recorded histories unchanged while new work takes the new behaviour. One function per change; each names its
 * patch id.
 */
import { patched } from '@temporalio/workflow';
import type { CompactionOptions } from '../core/plan/options';
import type { RunLimits } from '../contract/settings';
import { countedAt, type SentContext } from './sent-contexts';

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

/**
 * Start settings naming a summarizer profile the worker lacks fail the run with `InvalidStart` once the first append
 * is refused for it (issue 22, item 13); before, the run kept the settings and refused every call.
 */
export const UNKNOWN_START_PROFILE_FAILS = 'unknown-start-profile-fails-start';

/** Usage reported for any context of the current append chain calibrates (issue 9, item 1). */
export const CALIBRATE_APPENDED_SINCE = 'calibrate-any-context-of-the-append-chain';

/**
 * Our count of the context a report names. New work accepts any version of the append chain (`sent`), so a report
 * for the context `prepare` returned still applies after a `record` and after continue-as-new; a replayed history
 * recorded before {@link CALIBRATE_APPENDED_SINCE} accepts only the version of the last append in this run, as it did.
 * @returns the count, or undefined when the report cannot be related to the current context.
 */
export function reportedContextCount(
  sent: readonly SentContext[] | undefined,
  lastInRun: SentContext | null,
  version: number
): number | undefined {
  if (patched(CALIBRATE_APPENDED_SINCE)) return countedAt(sent, version);
  return lastInRun?.version === version ? lastInRun.counted : undefined;
}

/**
 * Runs continue-as-new after 60 updates by default (was 1 500): a worker that takes a conversation over after a
 * crash replays the current run before it answers, and the crash trials measured that replay as what keeps a
 * conversation stalled while kills follow each other (100 kills, one worker: 5 calls over 30 s at 200 updates a run,
 * none at 60; issue 16).
 */
export const SHORTER_RUNS = 'runs-of-60-updates';

/** `limits.maxUpdatesPerRun`'s default before {@link SHORTER_RUNS}. */
const RECORDED_MAX_UPDATES_PER_RUN = 1500;

/**
 * The run-limit defaults of this run: the current ones for new work, the recorded default for a history written
 * before {@link SHORTER_RUNS} (its continue-as-new came later). Ask it before the first await of the run.
 * @returns the defaults to merge the caller's limits into.
 */
export function runLimitDefaults(current: RunLimits): RunLimits {
  return patched(SHORTER_RUNS) ? current : { ...current, maxUpdatesPerRun: RECORDED_MAX_UPDATES_PER_RUN };
}

/**
 * A format is detected from unambiguous evidence only, a transcript mixing formats is refused, and an element of
 * another format than the conversation's is refused (issue 24: a Claude transcript was read as chat). Histories
 * recorded before read formats as `detect-recorded.ts` does.
 */
export const FORMATS_FROM_EVIDENCE = 'formats-from-evidence-only';

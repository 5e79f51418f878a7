/**
 * Run limits' floors and ceilings. A limit outside them either wedges the conversation (a 1-byte history limit
 * continues-as-new forever, a heartbeat timeout below the heartbeat interval fails every real fold) or defeats the
 * server's own caps, so it is refused at start.
 */
import { unknownKeyMessage } from '../core/input/known-keys';
import type { FoldLimits } from './fold-limits';

/** Run limits: when to continue-as-new, and the summarize activity's bounds (see `FoldLimits`). Tests lower them. */
export interface RunLimits extends FoldLimits {
  /**
   * Continue-as-new after this many updates in one run (the server caps a run at 2 000): a worker taking the
   * conversation over after a crash replays the run first. @default 60
   */
  maxUpdatesPerRun: number;
  /** Continue-as-new past this many history bytes (the server warns at 10 MiB, fails at 50 MiB). @default 8 MiB */
  maxHistoryBytes: number;
  /** Continue-as-new past this many history events (warn at 10 240, fail at 51 200). @default 8000 */
  maxHistoryEvents: number;
}

/** Inclusive range of the run limits, with why (the fold limits are checked together by `foldLimitsProblem`). */
export const LIMIT_RANGES: Partial<Record<keyof RunLimits, { min: number; max: number }>> = {
  // Below 10 a run would hand over after almost every call; the server caps a run at 2 000 updates.
  maxUpdatesPerRun: { min: 10, max: 1900 },
  // Below 1 MiB a run with one large message would continue-as-new in a loop; the server fails a run at 50 MiB.
  maxHistoryBytes: { min: 1_048_576, max: 40 * 1_048_576 },
  // The server warns at 10 240 events and fails at 51 200.
  maxHistoryEvents: { min: 500, max: 40_000 },
};

/**
 * Checks a partial limits object.
 * @param known the limit names (every other key is refused, with a hint when it looks like a typo).
 * @returns the given limits, checked.
 * @throws Error naming the bad limit and its range.
 */
export function checkLimits(patch: unknown, known: readonly string[]): Partial<RunLimits> {
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) throw new Error('limits must be an object');
  const unknown = unknownKeyMessage(patch, known, 'limits');
  if (unknown) throw new Error(unknown);
  const out: Partial<RunLimits> = {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    const { min, max } = LIMIT_RANGES[key as keyof RunLimits] ?? { min: 1, max: Number.MAX_SAFE_INTEGER };
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
      throw new Error(`limits.${key} must be an integer from ${min} to ${max}, got ${JSON.stringify(value)}`);
    }
    out[key as keyof RunLimits] = value;
  }
  return out;
}

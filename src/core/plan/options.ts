/**
 * Planning options: plain JSON (the workflow stores and carries them), every field optional but `budget`, defaults
 * documented here and applied by {@link resolveOptions}.
 */
import type { ItemRole } from '../messages/types';

/** The keep policies. `auto` is the default and the one meant for real agent sessions. */
export type KeepPolicy = 'auto' | 'turns' | 'items' | 'ratio' | 'rounds' | 'tokens';

/** All keep policies, in documentation order. */
export const KEEP_POLICIES: readonly KeepPolicy[] = ['auto', 'turns', 'items', 'ratio', 'rounds', 'tokens'];

/** How the `auto` policy sizes the summary's room (see `CompactionOptions.summaryReserve`). */
export type SummaryReserve = 'fixed' | 'carried';

/** The ways to size the summary's room, in documentation order. */
export const SUMMARY_RESERVES: readonly SummaryReserve[] = ['fixed', 'carried'];

/** The largest share of the budget a `carried` reserve sets aside for what earlier summaries carry. */
export const CARRIED_RESERVE_SHARE = 0.25;

/** Selects items by id, role or tool name (JSON-serialisable); an item matches when any listed criterion matches. */
export interface ItemSelector {
  /** Item ids (typed-message `id`, Responses item `id`). */
  ids?: string[];
  /** Item roles. */
  roles?: ItemRole[];
  /** Tool names: matches a call making one of them and the results answering it. */
  tools?: string[];
  /** Caller indices. */
  indices?: number[];
}

/** How the planner decides. Every number is in tokens unless it says otherwise. */
export interface CompactionOptions {
  /** The context budget the folded context must fit. Required, > 0. */
  budget: number;
  /** Fold when the counted tokens reach `floor(budget × triggerRatio)`. @default 0.9 */
  triggerRatio?: number;
  /** Never fold a transcript with fewer items. @default 4 */
  minMessages?: number;
  /** @default 'auto' */
  policy?: KeepPolicy;
  /**
   * `auto`: the folded context (hoisted instructions + summary reserve + pinned + tail + fixed tokens) aims at this
   * share of the budget, so after a fold it lands near half the budget, far below the 0.9 trigger. @default 0.5
   */
  targetRatio?: number;
  /** `auto`: tokens set aside for the summary when sizing the tail. @default min(floor(budget / 10), 4096) */
  summaryReserveTokens?: number;
  /**
   * `auto`: `fixed` sets aside `summaryReserveTokens`; `carried` sets aside at least what the earlier summaries in the
   * transcript take, up to a quarter of the budget (`CARRIED_RESERVE_SHARE`), so the kept tail shrinks before what
   * they carry is cut. New conversations, new Compactor states and the CLI start with `carried`. @default 'fixed'
   */
  summaryReserve?: SummaryReserve;
  /**
   * `auto`: a user-turn boundary is chosen over a safe point inside a turn unless it keeps less than this share of
   * what the inner point keeps. @default 0.5
   */
  turnPreference?: number;
  /**
   * `auto`: when the cut lands inside a turn, that turn's opening user message is pinned (kept verbatim after the
   * summary) if it costs at most `budget × this`. 0 turns it off. @default 0.1
   */
  pinTurnOpening?: number;
  /** `turns`: how many real user turns to keep. @default 8 */
  keepTurns?: number;
  /** `items`: how many trailing items to keep before the call/result walk-back. @default 4 */
  keepLast?: number;
  /** `ratio`: replaces `max(2, ceil(n × 0.25))` unconditionally, even with 0. */
  keepRecentCount?: number;
  /** `rounds`: fold when the rounds exceed this. @default 10 */
  maxRounds?: number;
  /** `rounds`: `compress` folds the oldest half; `truncate` drops the oldest rounds without a summary. @default 'compress' */
  roundsMode?: 'compress' | 'truncate';
  /** `tokens`: the kept tail's share of the budget. @default 0.4 */
  tailRatio?: number;
  /** Tokens of a summary item with empty text, for the min-fold default. @default 20 */
  emptySummaryTokens?: number;
  /**
   * A prefix whose summarised tokens are below this is not folded. The `rounds` policy folds on the round count
   * (it has no token floor), so its default is 0.
   * @default max(floor(budget / 8), 2 × emptySummaryTokens); 0 for `rounds`
   */
  minFoldTokens?: number;
  /**
   * The keep-verbatim selector: items of the folded part kept verbatim after the summary, with their call/result
   * group. (Not the `pin` flag of a conversation's message, which the workflow hands over through this selector.)
   */
  pin?: ItemSelector;
  /** Items of the folded part the summarizer must not see; they still leave the context. */
  filter?: ItemSelector;
}

/** Options with every default applied. */
export type ResolvedOptions = Required<Omit<CompactionOptions, 'keepRecentCount' | 'pin' | 'filter'>> &
  Pick<CompactionOptions, 'keepRecentCount' | 'pin' | 'filter'>;

/** Bad planning options (a programming or configuration error, not bad transcript input). */
export class PlanOptionsError extends RangeError {
  override readonly name = 'PlanOptionsError';
}

/** The share of the budget at which a fold starts when `triggerRatio` is not given. */
export const DEFAULT_TRIGGER_RATIO = 0.9;

/**
 * Applies the defaults and checks the ranges.
 * @throws PlanOptionsError for a non-positive budget, a ratio outside (0, 1], a negative count or an unknown policy.
 */
export function resolveOptions(o: CompactionOptions): ResolvedOptions {
  const budget = o.budget;
  if (!Number.isFinite(budget) || budget <= 0)
    throw new PlanOptionsError(`budget must be a positive number, got ${budget}`);
  const policy = o.policy ?? 'auto';
  if (!KEEP_POLICIES.includes(policy)) {
    throw new PlanOptionsError(`unknown policy '${String(policy)}' (known: ${KEEP_POLICIES.join(', ')})`);
  }
  const emptySummaryTokens = o.emptySummaryTokens ?? 20;
  const r: ResolvedOptions = {
    budget,
    policy,
    triggerRatio: o.triggerRatio ?? DEFAULT_TRIGGER_RATIO,
    minMessages: o.minMessages ?? 4,
    targetRatio: o.targetRatio ?? 0.5,
    summaryReserveTokens: o.summaryReserveTokens ?? Math.min(Math.floor(budget / 10), 4096),
    summaryReserve: o.summaryReserve ?? 'fixed',
    turnPreference: o.turnPreference ?? 0.5,
    pinTurnOpening: o.pinTurnOpening ?? 0.1,
    keepTurns: o.keepTurns ?? 8,
    keepLast: o.keepLast ?? 4,
    maxRounds: o.maxRounds ?? 10,
    roundsMode: o.roundsMode ?? 'compress',
    tailRatio: o.tailRatio ?? 0.4,
    emptySummaryTokens,
    minFoldTokens:
      o.minFoldTokens ?? (policy === 'rounds' ? 0 : Math.max(Math.floor(budget / 8), 2 * emptySummaryTokens)),
    ...(o.keepRecentCount === undefined ? {} : { keepRecentCount: o.keepRecentCount }),
    ...(o.pin === undefined ? {} : { pin: o.pin }),
    ...(o.filter === undefined ? {} : { filter: o.filter }),
  };
  for (const key of ['triggerRatio', 'targetRatio', 'tailRatio', 'turnPreference'] as const) {
    const v = r[key];
    if (!(v > 0 && v <= 1)) throw new PlanOptionsError(`${key} must be in (0, 1], got ${v}`);
  }
  if (!(r.pinTurnOpening >= 0 && r.pinTurnOpening <= 1)) {
    throw new PlanOptionsError(`pinTurnOpening must be in [0, 1], got ${r.pinTurnOpening}`);
  }
  for (const key of [
    'minMessages',
    'keepTurns',
    'keepLast',
    'maxRounds',
    'minFoldTokens',
    'summaryReserveTokens',
    'emptySummaryTokens',
  ] as const) {
    const v = r[key];
    if (!Number.isFinite(v) || v < 0) throw new PlanOptionsError(`${key} must be a non-negative number, got ${v}`);
  }
  if (r.keepRecentCount !== undefined && !(Number.isInteger(r.keepRecentCount) && r.keepRecentCount >= 0)) {
    throw new PlanOptionsError(`keepRecentCount must be a non-negative integer, got ${r.keepRecentCount}`);
  }
  if (!SUMMARY_RESERVES.includes(r.summaryReserve)) {
    throw new PlanOptionsError(
      `summaryReserve must be one of ${SUMMARY_RESERVES.join(', ')}, got '${String(r.summaryReserve)}'`
    );
  }
  if (r.roundsMode !== 'compress' && r.roundsMode !== 'truncate') {
    throw new PlanOptionsError(`roundsMode must be 'compress' or 'truncate', got '${String(r.roundsMode)}'`);
  }
  return r;
}

/**
 * `settings.plan`, the planning options a conversation may set beyond budget, trigger and policy: every key known
 * (typos named with a hint), every number an integer or a share in range, the pin and filter selectors of the right
 * shape, from one schema. A bad value here would otherwise be stored and fail every later fold.
 */
import * as z from 'zod/v4-mini';
import type { ItemRole } from '../../core/messages/types';
import { SUMMARY_RESERVES } from '../../core/plan/options';
import { count, intFrom, says } from './leaves';

const ROLES: [ItemRole, ...ItemRole[]] = [
  'instructions',
  'user',
  'assistant',
  'tool',
  'reasoning',
  'activity',
  'summary',
  'other',
];

/** Entries a selector list may hold (each is matched per item when planning). */
export const MAX_SELECTOR_ENTRIES = 1000;

/** A share of the budget in (0, 1]. */
function share() {
  const predicate = says('must be a number in (0, 1]');
  return z.number(predicate).check(z.gt(0, predicate), z.lte(1, predicate));
}

/** A share of the budget in [0, 1] (0: off). */
function shareOrOff() {
  const predicate = says('must be a number in [0, 1]');
  return z.number(predicate).check(z.gte(0, predicate), z.lte(1, predicate));
}

/** A list of at most {@link MAX_SELECTOR_ENTRIES} entries. */
function list<T extends z.core.$ZodType>(entry: T) {
  return z
    .array(entry, says('must be an array'))
    .check(z.maxLength(MAX_SELECTOR_ENTRIES, says(`must have at most ${MAX_SELECTOR_ENTRIES} entries`)));
}

const name = () => {
  const predicate = says('must be a non-empty string (at most 1000 characters)');
  return z.string(predicate).check(z.minLength(1, predicate), z.maxLength(1000, predicate));
};

/** Which items a `pin` or `filter` selects: by id, role, tool name or index (any of them matching). */
export const itemSelector = z.strictObject(
  {
    ids: z.optional(list(name())),
    roles: z.optional(list(z.enum(ROLES, says(`must be one of ${ROLES.join(', ')}`)))),
    tools: z.optional(list(name())),
    indices: z.optional(list(count())),
  },
  says('must be an object with ids, roles, tools or indices')
);

/** `settings.plan`: each option optional, as documented on `CompactionOptions`. */
export const planSettingsSchema = z.strictObject(
  {
    minMessages: z.optional(intFrom(0, 100_000)),
    summaryReserveTokens: z.optional(intFrom(0, 1_000_000)),
    summaryReserve: z.optional(z.enum(SUMMARY_RESERVES, says("must be 'fixed' or 'carried'"))),
    keepTurns: z.optional(intFrom(0, 100_000)),
    keepLast: z.optional(intFrom(0, 100_000)),
    keepRecentCount: z.optional(intFrom(0, 100_000)),
    maxRounds: z.optional(intFrom(0, 100_000)),
    emptySummaryTokens: z.optional(intFrom(0, 100_000)),
    minFoldTokens: z.optional(intFrom(0, 1_000_000)),
    targetRatio: z.optional(share()),
    turnPreference: z.optional(share()),
    tailRatio: z.optional(share()),
    pinTurnOpening: z.optional(shareOrOff()),
    roundsMode: z.optional(z.enum(['compress', 'truncate'], says("must be 'compress' or 'truncate'"))),
    pin: z.optional(itemSelector),
    filter: z.optional(itemSelector),
  },
  says('must be an object')
);

/** The settings a plan may not hold: they are set at the top level. */
export const TOP_LEVEL_PLAN_KEYS = ['budget', 'triggerRatio', 'policy'] as const;

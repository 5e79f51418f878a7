/**
 * Deep validation of the `plan` settings: every key known (typos named with a hint), every number an integer or
 * ratio in range, pin/filter selectors of the right shape. A bad value here would otherwise be stored and fail every
 * later fold.
 */
import { unknownKeyMessage } from '../core/input/known-keys';
import type { CompactionOptions, ItemSelector } from '../core/plan/options';
import type { ItemRole } from '../core/messages/types';

/** The planning options a conversation may set beyond budget, trigger and policy. */
export type PlanSettings = Omit<CompactionOptions, 'budget' | 'triggerRatio' | 'policy'>;

const ROLES: readonly ItemRole[] = [
  'instructions',
  'user',
  'assistant',
  'tool',
  'reasoning',
  'activity',
  'summary',
  'other',
];

/** Integer counts (tokens or items) and their ceilings. */
const COUNTS: Record<string, number> = {
  minMessages: 100_000,
  summaryReserveTokens: 1_000_000,
  keepTurns: 100_000,
  keepLast: 100_000,
  keepRecentCount: 100_000,
  maxRounds: 100_000,
  emptySummaryTokens: 100_000,
  minFoldTokens: 1_000_000,
};
/** Shares of the budget in (0, 1] (`pinTurnOpening` may be 0: off). */
const RATIOS = ['targetRatio', 'turnPreference', 'tailRatio', 'pinTurnOpening'];
const SELECTORS = ['pin', 'filter'];
const KNOWN = [...Object.keys(COUNTS), ...RATIOS, 'roundsMode', ...SELECTORS];
const SELECTOR_KEYS = ['ids', 'roles', 'tools', 'indices'];
/** Entries a selector list may hold (each is matched per item when planning). */
const MAX_SELECTOR_ENTRIES = 1000;

/**
 * Checks a `plan` settings object.
 * @returns a copy holding only checked values.
 * @throws Error (the caller wraps it as a settings error) naming the bad field.
 */
export function checkPlanSettings(plan: Record<string, unknown>): PlanSettings {
  for (const key of ['budget', 'triggerRatio', 'policy']) {
    if (Object.hasOwn(plan, key)) throw new Error(`plan.${key}: set '${key}' at the top level of the settings`);
  }
  const unknown = unknownKeyMessage(plan, KNOWN, 'plan');
  if (unknown) throw new Error(unknown);
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(plan)) {
    if (value === undefined) continue;
    const at = `plan.${key}`;
    if (key in COUNTS) {
      const max = COUNTS[key]!;
      if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > max) {
        throw new Error(`${at} must be an integer from 0 to ${max}, got ${show(value)}`);
      }
    } else if (RATIOS.includes(key)) {
      const min = key === 'pinTurnOpening' ? 0 : Number.MIN_VALUE;
      if (typeof value !== 'number' || !(value >= min && value <= 1)) {
        throw new Error(`${at} must be a number in ${min === 0 ? '[0, 1]' : '(0, 1]'}, got ${show(value)}`);
      }
    } else if (key === 'roundsMode') {
      if (value !== 'compress' && value !== 'truncate') {
        throw new Error(`${at} must be 'compress' or 'truncate', got ${show(value)}`);
      }
    } else {
      out[key] = checkSelector(value, at);
      continue;
    }
    out[key] = value;
  }
  return out;
}

function checkSelector(value: unknown, at: string): ItemSelector {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new Error(`${at} must be an object with ids, roles, tools or indices, got ${show(value)}`);
  }
  const unknown = unknownKeyMessage(value, SELECTOR_KEYS, at);
  if (unknown) throw new Error(unknown);
  const sel = value as Record<string, unknown>;
  const out: ItemSelector = {};
  for (const key of SELECTOR_KEYS) {
    const list = sel[key];
    if (list === undefined) continue;
    if (!Array.isArray(list)) throw new Error(`${at}.${key} must be an array, got ${show(list)}`);
    if (list.length > MAX_SELECTOR_ENTRIES) {
      throw new Error(`${at}.${key} has ${list.length} entries, more than ${MAX_SELECTOR_ENTRIES}`);
    }
    list.forEach((entry: unknown, i) => {
      const ok =
        key === 'indices'
          ? typeof entry === 'number' && Number.isInteger(entry) && entry >= 0
          : key === 'roles'
            ? typeof entry === 'string' && (ROLES as readonly string[]).includes(entry)
            : typeof entry === 'string' && entry !== '' && entry.length <= 1000;
      if (!ok) {
        const want =
          key === 'indices'
            ? 'a non-negative integer'
            : key === 'roles'
              ? `one of ${ROLES.join(', ')}`
              : 'a non-empty string (at most 1000 characters)';
        throw new Error(`${at}.${key}[${i}] must be ${want}, got ${show(entry)}`);
      }
    });
    (out as Record<string, unknown>)[key] = [...(list as unknown[])];
  }
  return out;
}

/** A short rendering of a bad value for messages (never the whole of a large one). */
export function show(value: unknown): string {
  if (value === undefined) return 'undefined';
  let text: string;
  try {
    text = JSON.stringify(value) ?? typeof value;
  } catch {
    text = typeof value;
  }
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

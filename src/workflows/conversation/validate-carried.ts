/**
 * The `carried` start argument: the state a previous run handed over through continue-as-new. Any caller can send
 * one with update-with-start, so it is checked field by field before anything runs, and its settings as strictly as
 * a `configure` patch (the ranges of every field, and together); a problem is an `InvalidStart` naming the field.
 */
import { show } from '../../contract/show-value';
import { formatNamed } from '../../core/messages/format-name';
import { defaultLimits, defaultSettings, mergeLimits, mergeSettings } from '../../contract/settings';
import { carriedLedgerProblem } from '../../core/fold/state-ledger/carried-check';
import type { CarriedState } from './carried-state';

type Problem = string | undefined;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const count = (v: unknown, min = 0): boolean => typeof v === 'number' && Number.isSafeInteger(v) && v >= min;

/** @returns the first problem of the list at `path` (each element checked by `each`), or undefined. */
function listProblem(v: unknown, path: string, each: (el: unknown, at: string) => Problem): Problem {
  if (!Array.isArray(v)) return `${path} must be an array, got ${show(v)}`;
  for (let i = 0; i < v.length; i++) {
    const p = each(v[i], `${path}[${i}]`);
    if (p) return p;
  }
  return undefined;
}

const stringAt = (el: unknown, at: string): Problem =>
  typeof el === 'string' ? undefined : `${at} must be a string, got ${show(el)}`;

function liveEntryProblem(el: unknown, at: string): Problem {
  if (!isObject(el)) return `${at} must be a live entry object, got ${show(el)}`;
  if (typeof el.uid !== 'string' || el.uid === '') return `${at}.uid must be a non-empty string`;
  if (!count(el.rev)) return `${at}.rev must be a non-negative integer, got ${show(el.rev)}`;
  if (!count(el.tokens)) return `${at}.tokens must be a non-negative integer, got ${show(el.tokens)}`;
  if (el.seq !== null && !count(el.seq)) return `${at}.seq must be null or a non-negative integer`;
  if (!isObject(el.raw)) return `${at}.raw must be a message object, got ${show(el.raw)}`;
  if (el.pinned !== undefined && typeof el.pinned !== 'boolean') return `${at}.pinned must be true or false`;
  if (el.ref !== undefined && !(isObject(el.ref) && count(el.ref.bytes) && Object.keys(el.ref).length === 1))
    return `${at}.ref must be {bytes} (a non-negative integer), got ${show(el.ref)}`;
  if (el.ref !== undefined && el.seq === null) return `${at}.ref needs an archived message (seq is null)`;
  return undefined;
}

function writerProblem(el: unknown, at: string): Problem {
  const ok =
    Array.isArray(el) &&
    (el.length === 2 || (el.length === 3 && typeof el[2] === 'string')) &&
    typeof el[0] === 'string' &&
    count(el[1]);
  return ok ? undefined : `${at} must be [writer, lastSeq, hash?], got ${show(el)}`;
}

function sentProblem(el: unknown, at: string): Problem {
  return isObject(el) && count(el.version) && count(el.counted)
    ? undefined
    : `${at} must be {version, counted} (non-negative integers), got ${show(el)}`;
}

function foldRecordProblem(el: unknown, at: string): Problem {
  if (!isObject(el)) return `${at} must be a fold record object, got ${show(el)}`;
  if (!count(el.number, 1)) return `${at}.number must be a positive integer, got ${show(el.number)}`;
  return typeof el.ok === 'boolean' ? undefined : `${at}.ok must be true or false`;
}

function hotPathsProblem(v: unknown): Problem {
  if (!isObject(v)) return `carried.hotPaths must be an object, got ${show(v)}`;
  return listProblem(v.scores, 'carried.hotPaths.scores', (el, at) =>
    isObject(el) && typeof el.path === 'string' && typeof el.score === 'number' && Number.isFinite(el.score)
      ? undefined
      : `${at} must be {path, score}, got ${show(el)}`
  );
}

function nullableObject(v: unknown, path: string): Problem {
  return v === null || isObject(v) ? undefined : `${path} must be null or an object, got ${show(v)}`;
}

function settingsProblem(v: unknown): Problem {
  if (!isObject(v)) return `carried.settings must be an object, got ${show(v)}`;
  try {
    mergeSettings(defaultSettings, v);
  } catch (err) {
    return `carried.settings: ${err instanceof Error ? err.message : String(err)}`;
  }
  return undefined;
}

/** The resolved run limits: every limit present and in its range (the ones `mergeLimits` accepts). */
function limitsProblem(v: unknown): Problem {
  if (!isObject(v)) return `carried.limits must be the resolved run limits, got ${show(v)}`;
  const missing = Object.keys(defaultLimits).find((k) => v[k] === undefined);
  if (missing) return `carried.limits.${missing} is missing`;
  try {
    mergeLimits(defaultLimits, v);
  } catch (err) {
    return `carried.${err instanceof Error ? err.message : String(err)}`;
  }
  return undefined;
}

function scalarProblem(c: Record<string, unknown>, conversationId: string): Problem {
  if (c.conversationId !== conversationId) {
    return `carried.conversationId ${show(c.conversationId)} is not this conversation ('${conversationId}')`;
  }
  if (c.format !== null && !formatNamed(c.format)) return `carried.format must be null or a format name`;
  if (c.formatFixed !== undefined && typeof c.formatFixed !== 'boolean') return 'carried.formatFixed must be boolean';
  for (const key of ['nextSeq', 'version', 'foldCount', 'fixedTokens', 'continuedAsNew'] as const) {
    if (!count(c[key])) return `carried.${key} must be a non-negative integer, got ${show(c[key])}`;
  }
  if (!count(c.lastClientSeq, -1))
    return `carried.lastClientSeq must be an integer from -1, got ${show(c.lastClientSeq)}`;
  if (c.lastClientHash !== undefined && typeof c.lastClientHash !== 'string')
    return 'carried.lastClientHash must be a string';
  if (c.toolTokens !== undefined && !count(c.toolTokens)) return 'carried.toolTokens must be a non-negative integer';
  if (typeof c.closed !== 'boolean') return `carried.closed must be true or false, got ${show(c.closed)}`;
  const e = c.lastError;
  if (e !== null && !(isObject(e) && typeof e.at === 'number' && typeof e.message === 'string')) {
    return `carried.lastError must be null or {at, message}, got ${show(e)}`;
  }
  return undefined;
}

/**
 * @returns the carried state, unchanged, when every field is well formed.
 * @throws Error naming the first field that is not.
 */
export function checkCarried(value: unknown, conversationId: string): CarriedState {
  if (!isObject(value))
    throw new Error(`start carried must be the state a previous run handed over, got ${show(value)}`);
  const problem =
    scalarProblem(value, conversationId) ??
    settingsProblem(value.settings) ??
    limitsProblem(value.limits) ??
    listProblem(value.live, 'carried.live', liveEntryProblem) ??
    listProblem(value.writers, 'carried.writers', writerProblem) ??
    listProblem(value.recentIds, 'carried.recentIds', stringAt) ??
    listProblem(value.folds, 'carried.folds', foldRecordProblem) ??
    nullableObject(value.backoff, 'carried.backoff') ??
    nullableObject(value.calibration, 'carried.calibration') ??
    listProblem(value.sent, 'carried.sent', sentProblem) ??
    hotPathsProblem(value.hotPaths) ??
    nullableObject(value.pendingFold, 'carried.pendingFold') ??
    listProblem(value.turnReads, 'carried.turnReads', stringAt) ??
    (value.ledger === undefined || value.ledger === null
      ? undefined
      : carriedLedgerProblem(value.ledger, 'carried.ledger'));
  if (problem) throw new Error(problem);
  return value as unknown as CarriedState;
}

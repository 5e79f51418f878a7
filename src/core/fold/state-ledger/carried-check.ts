/**
 * Checking a carried state ledger read back from state a caller can send (a conversation's continue-as-new input, a
 * Compactor's saved state): every field, and the bounds `boundLedger` keeps.
 */
import { isCount, isObject } from '../../input/json-values';
import { utf8Encode } from '../../hash';
import { KIND_ORDER } from './types';
import type { EntryKind, StateLedger } from './types';

/** A fold's merged ledger and the summary it belongs to. Plain JSON. */
export interface CarriedLedger {
  /** {@link summaryKey} of the summary text this ledger was printed into. */
  summaryKey: string;
  ledger: StateLedger;
}

/** Largest carried ledger, UTF-8 bytes of its JSON. */
export const CARRIED_LEDGER_MAX_BYTES = 32 * 1024;
/** Longest entry or task text carried, characters. */
export const CARRIED_TEXT_MAX_CHARS = 4000;
/** Most entries carried. */
export const CARRIED_MAX_ENTRIES = 400;

/** @returns UTF-8 bytes of the JSON of `l` */
export const ledgerBytes = (l: unknown): number => utf8Encode(JSON.stringify(l)).length;

const KINDS: ReadonlySet<string> = new Set<EntryKind>(KIND_ORDER);
const STATUSES: ReadonlySet<string> = new Set(['done', 'in progress', 'next']);
const ENTRY_KEYS: ReadonlySet<string> = new Set(['kind', 'text', 'seq', 'status', 'was', 'pointer']);

const textProblem = (v: unknown, at: string): string | undefined =>
  typeof v === 'string' && v.length <= CARRIED_TEXT_MAX_CHARS
    ? undefined
    : `${at} must be a string of at most ${CARRIED_TEXT_MAX_CHARS} characters`;
const seqProblem = (v: unknown, at: string): string | undefined =>
  v === null || isCount(v) ? undefined : `${at} must be null or a non-negative integer`;

function entryProblem(e: unknown, at: string): string | undefined {
  if (!isObject(e)) return `${at} must be a ledger entry object`;
  const unknown = Object.keys(e).find((k) => !ENTRY_KEYS.has(k));
  if (unknown !== undefined) return `${at}.${unknown} is not a field of a ledger entry`;
  if (typeof e.kind !== 'string' || !KINDS.has(e.kind)) return `${at}.kind must be one of ${KIND_ORDER.join(', ')}`;
  const problem = textProblem(e.text, `${at}.text`) ?? seqProblem(e.seq, `${at}.seq`);
  if (problem) return problem;
  if (e.status !== undefined && (typeof e.status !== 'string' || !STATUSES.has(e.status)))
    return `${at}.status must be 'done', 'in progress' or 'next'`;
  if (e.was !== undefined) return textProblem(e.was, `${at}.was`);
  return e.pointer === undefined || e.pointer === true ? undefined : `${at}.pointer must be true when present`;
}

/**
 * Checks a carried ledger read from state a caller can send (continue-as-new input, a Compactor's saved state).
 *
 * @param path how the value is named in the message (`carried.ledger`)
 * @returns the first problem, naming its field, or `undefined` when it is a carried ledger within the bounds
 */
export function carriedLedgerProblem(v: unknown, path: string): string | undefined {
  if (!isObject(v)) return `${path} must be {summaryKey, ledger}`;
  if (typeof v.summaryKey !== 'string' || !/^[0-9a-f]{64}$/.test(v.summaryKey))
    return `${path}.summaryKey must be 64 lower-case hex digits`;
  const l = v.ledger;
  if (!isObject(l) || !Array.isArray(l.entries)) return `${path}.ledger must be {task?, entries}`;
  if (l.entries.length > CARRIED_MAX_ENTRIES) return `${path}.ledger.entries holds more than ${CARRIED_MAX_ENTRIES}`;
  if (l.task !== undefined) {
    if (!isObject(l.task)) return `${path}.ledger.task must be {text, seq}`;
    const p = textProblem(l.task.text, `${path}.ledger.task.text`) ?? seqProblem(l.task.seq, `${path}.ledger.task.seq`);
    if (p) return p;
  }
  for (let i = 0; i < l.entries.length; i++) {
    const p = entryProblem(l.entries[i], `${path}.ledger.entries[${i}]`);
    if (p) return p;
  }
  return ledgerBytes(l) <= CARRIED_LEDGER_MAX_BYTES
    ? undefined
    : `${path}.ledger is larger than ${CARRIED_LEDGER_MAX_BYTES} bytes`;
}

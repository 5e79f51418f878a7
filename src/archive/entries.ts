/**
 * The driver-independent part of archive writes and reads: input validation, serialisation with content hashes, and
 * the decision which numbers are new, unchanged or superseded. Drivers run it inside their transaction.
 */
import { createHash } from 'node:crypto';
import { FoldRecordError, parseFoldRecord } from '../core/fold/fold-record';
import { canonicalJson, CanonicalJsonError } from '../core/hash';
import { ArchiveGapError, ArchiveInputError, type EntryKind, type WriteOutcome } from './archive';

/** Longest key (workflow id) in UTF-8 bytes: Temporal's default limit for ids. */
export const MAX_KEY_BYTES = 1000;
/** Largest stored value in bytes of JSON: Temporal's payload limit, so nothing larger can reach an activity. */
export const MAX_ENTRY_BYTES = 2 * 1024 * 1024;
/** Most values in one write or numbers in one read (a transaction stays short). */
export const MAX_ENTRIES_PER_CALL = 10_000;

/** A value ready to store. */
export interface PreparedEntry {
  seq: number;
  hash: string;
  body: string;
}

/** What a number holds now, as read inside the write's transaction (fold records with their body). */
export interface StoredHead {
  seq: number;
  revision: number;
  /** As stored: the content hash, or its HMAC when the row is encrypted (`keyId` set). */
  hash: string;
  body?: string;
  /** The key the row is encrypted with; `null` (or absent) for a plaintext row. */
  keyId?: string | null;
}

/**
 * The rows a write must insert (revision 0), replace (the given next revision; the old one is kept), and keep as a
 * superseded revision without replacing what is current (`revision`; the current row becomes `revision + 1`).
 */
export interface WritePlan {
  inserts: PreparedEntry[];
  supersedes: (PreparedEntry & { revision: number })[];
  stale: (PreparedEntry & { revision: number })[];
  outcome: WriteOutcome;
}

/** @throws ArchiveInputError unless `key` is a non-empty string of at most {@link MAX_KEY_BYTES} without NUL. */
export function checkKey(key: unknown): string {
  if (typeof key !== 'string' || key.length === 0)
    throw new ArchiveInputError(`archive key (workflow id) must be a non-empty string, got ${describe(key)}`);
  if (Buffer.byteLength(key, 'utf8') > MAX_KEY_BYTES)
    throw new ArchiveInputError(`archive key (workflow id) is longer than ${MAX_KEY_BYTES} bytes`);
  if (key.includes('\u0000')) throw new ArchiveInputError('archive key (workflow id) must not contain NUL');
  return key;
}

/** @throws ArchiveInputError unless `n` is an integer from `min` to `Number.MAX_SAFE_INTEGER`. */
export function checkNumber(n: unknown, what: string, min = 0): number {
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < min)
    throw new ArchiveInputError(`${what} must be an integer ≥ ${min}, got ${describe(n)}`);
  return n;
}

/** @throws ArchiveInputError unless `seqs` is an array of at most {@link MAX_ENTRIES_PER_CALL} sequence numbers. */
export function checkSeqs(seqs: unknown): number[] {
  if (!Array.isArray(seqs)) throw new ArchiveInputError(`seqs must be an array, got ${describe(seqs)}`);
  if (seqs.length > MAX_ENTRIES_PER_CALL)
    throw new ArchiveInputError(`at most ${MAX_ENTRIES_PER_CALL} seqs per read, got ${seqs.length}`);
  return seqs.map((s, i) => checkNumber(s, `seqs[${i}]`));
}

/**
 * Checks the arguments of `idleKeys`.
 * @returns the cut-off as an ISO-8601 string, the key to start after (`''` for the first page) and the page size.
 * @throws ArchiveInputError for an invalid date, a bad `after` key or a limit outside 1..{@link MAX_ENTRIES_PER_CALL}.
 */
/** Which idle keys to list, checked: stored before `before` (ISO time), after the key `after`, at most `limit`. */
export interface IdleQuery {
  before: string;
  after: string;
  limit: number;
}

export function checkIdleKeys(before: unknown, options: { after?: unknown; limit?: unknown } | undefined): IdleQuery {
  if (!(before instanceof Date) || Number.isNaN(before.getTime()))
    throw new ArchiveInputError(`before must be a valid Date, got ${describe(before)}`);
  const after = options?.after === undefined ? '' : checkKey(options.after);
  const limit = options?.limit === undefined ? 1000 : checkNumber(options.limit, 'limit', 1);
  if (limit > MAX_ENTRIES_PER_CALL) throw new ArchiveInputError(`limit must be at most ${MAX_ENTRIES_PER_CALL}`);
  return { before: before.toISOString(), after, limit };
}

/**
 * Serialises values to store as numbers `firstSeq`, `firstSeq+1`, ….
 * @returns one prepared entry per value: its JSON text and the SHA-256 of its canonical JSON.
 * @throws ArchiveInputError for a bad number, too many values, a value JSON cannot carry, or one over
 *   {@link MAX_ENTRY_BYTES}.
 */
export function prepareEntries(kind: EntryKind, firstSeq: unknown, values: unknown): PreparedEntry[] {
  const first = checkNumber(firstSeq, kind === 'message' ? 'startSeq' : 'fold number', kind === 'message' ? 0 : 1);
  if (!Array.isArray(values)) throw new ArchiveInputError(`${kind}s must be an array, got ${describe(values)}`);
  if (values.length > MAX_ENTRIES_PER_CALL)
    throw new ArchiveInputError(`at most ${MAX_ENTRIES_PER_CALL} ${kind}s per write, got ${values.length}`);
  if (!Number.isSafeInteger(first + values.length))
    throw new ArchiveInputError(`${kind} numbers past ${Number.MAX_SAFE_INTEGER}`);
  return values.map((value, i) => {
    const seq = first + i;
    let canonical: string;
    let body: string | undefined;
    try {
      canonical = canonicalJson(value);
      body = JSON.stringify(value);
    } catch (err) {
      const why = err instanceof CanonicalJsonError ? err.message : String(err);
      throw new ArchiveInputError(`${kind} ${seq} cannot be stored as JSON: ${why}`);
    }
    if (body === undefined || value === undefined)
      throw new ArchiveInputError(`${kind} ${seq} has no JSON form (${describe(value)})`);
    const bytes = Buffer.byteLength(body, 'utf8');
    if (bytes > MAX_ENTRY_BYTES)
      throw new ArchiveInputError(`${kind} ${seq} is ${bytes} bytes of JSON; at most ${MAX_ENTRY_BYTES} are stored`);
    return { seq, hash: contentHash(canonical), body };
  });
}

/** @returns the SHA-256 (hex) of a value's canonical JSON: its content hash. */
export function contentHash(canonical: string): string {
  return createHash('sha256').update(canonical, 'utf8').digest('hex');
}

/**
 * @returns the number of a fold record to store.
 * @throws ArchiveInputError naming the first bad field when `record` is not a fold record.
 */
export function checkFoldRecord(record: unknown): number {
  try {
    return parseFoldRecord(record).number;
  } catch (err) {
    if (err instanceof FoldRecordError) throw new ArchiveInputError(err.message);
    throw err;
  }
}

/** @throws ArchiveGapError when an append starting at `firstSeq` would leave a gap after `lastStored`. */
export function checkNoGap(key: string, firstSeq: number, lastStored: number | null): void {
  const next = lastStored === null ? 0 : lastStored + 1;
  if (firstSeq > next) {
    throw new ArchiveGapError(
      `archive of ${key} ends at seq ${lastStored ?? 'none'}; cannot append seq ${firstSeq} (a gap: seq ${next} is missing)`
    );
  }
}

/** The workflow task times a fold record carries (`finishedAt`, then `startedAt`), when `body` is one. */
function taskTimes(body: string | undefined): [number, number] | undefined {
  if (body === undefined) return undefined;
  const { finishedAt, startedAt } = JSON.parse(body) as { finishedAt?: unknown; startedAt?: unknown };
  if (typeof finishedAt !== 'number') return undefined;
  return [finishedAt, typeof startedAt === 'number' ? startedAt : -Infinity];
}

/** Whether the record in `entry` was built from earlier workflow tasks than the one in `head`. */
function builtEarlier(entry: string | undefined, head: string | undefined): boolean {
  const a = taskTimes(entry);
  const b = taskTimes(head);
  if (!a || !b) return false;
  return a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]);
}

/**
 * Decides what a write does, given what its numbers hold now: a number with the same hash is unchanged; with another
 * hash it gets the next revision; a free number is inserted. A fold record built from earlier workflow tasks than the
 * current one (by `finishedAt`, then `startedAt`) is kept as a superseded revision and the current one stays: it is the
 * late write of a task the server did not keep (its worker lost the database for a while, or ran the fold's first task
 * from a cache the server had lost), while the record built from the later tasks is the one the conversation applied.
 * Fold heads must carry their body (plaintext). `same` says whether an entry's content is what a head holds (by
 * default: equal hashes).
 */
export function planWrite(
  entries: readonly PreparedEntry[],
  heads: readonly StoredHead[],
  same: (entry: PreparedEntry, head: StoredHead) => boolean = (entry, head) => entry.hash === head.hash
): WritePlan {
  const byNumber = new Map(heads.map((h) => [h.seq, h]));
  const plan: WritePlan = {
    inserts: [],
    supersedes: [],
    stale: [],
    outcome: { stored: 0, unchanged: 0, superseded: [] },
  };
  for (const entry of entries) {
    const head = byNumber.get(entry.seq);
    if (!head) {
      plan.inserts.push(entry);
      plan.outcome.stored++;
    } else if (same(entry, head)) {
      plan.outcome.unchanged++;
    } else if (builtEarlier(entry.body, head.body)) {
      plan.stale.push({ ...entry, revision: head.revision + 1 });
      plan.outcome.superseded.push(entry.seq);
    } else {
      plan.supersedes.push({ ...entry, revision: head.revision + 1 });
      plan.outcome.superseded.push(entry.seq);
    }
  }
  return plan;
}

/** Parses a stored body (always JSON this module wrote). */
export function parseBody(body: string): unknown {
  return JSON.parse(body) as unknown;
}

function describe(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v);
  if (Array.isArray(v)) return 'an array';
  if (v === null) return 'null';
  if (typeof v === 'number') return String(v);
  return typeof v;
}

import type { FoldRecord } from '../core/fold/fold-record';

/**
 * What the archive stores for one conversation: its messages (by sequence number 0, 1, 2, … in append order) and its
 * fold records (by fold number 1, 2, …). Every stored value has a content hash and a revision: 0 when first stored,
 * and one more each time the same number is written with different content (the older revision is kept).
 */
export type EntryKind = 'message' | 'fold';

/** One archived message: its sequence number, current revision, content hash and the original. */
export interface ArchivedMessage {
  seq: number;
  revision: number;
  /** SHA-256 (hex) of the message's canonical JSON (object keys sorted): key order does not make a new revision. */
  hash: string;
  message: unknown;
}

/** What a write did: how many numbers were new, already stored with the same content, or stored as a new revision. */
export interface WriteOutcome {
  stored: number;
  unchanged: number;
  /** Numbers that already held different content: the new content is now their current revision. */
  superseded: number[];
}

/** A revision that was replaced by newer content for the same number (kept for `inspect` and `export`). */
export interface SupersededRevision {
  kind: EntryKind;
  seq: number;
  revision: number;
  hash: string;
  /** ISO-8601 times: when this revision was stored and when a newer one replaced it. */
  storedAt: string;
  supersededAt: string;
  value: unknown;
}

/*
 * Fold summaries: the text each fold's summarizer wrote, keyed by the digest of the request that asked for it
 * (`summaryRequestDigest`), which the fold record carries as `requestDigest`. Kept beside the records, not in them:
 * the workflow's history then carries the summary text once (the summarizer's answer), not again in the record.
 */

/** What a fold's summary is: text, or the items a compaction endpoint returned (stored as their JSON). */
export type SummaryKind = 'text' | 'items';

/** A summary to store. */
export interface FoldSummaryText {
  /** `summaryRequestDigest` of the request, 64 lowercase hex characters. */
  digest: string;
  kind: SummaryKind;
  /** The summary text; for `items`, their JSON. At most `MAX_ENTRY_BYTES` (2 MiB) bytes of UTF-8. */
  text: string;
}

/** A stored summary, with the ISO-8601 time it was (last) written. */
export interface StoredSummary extends FoldSummaryText {
  storedAt: string;
}

/** Counts for `inspect`, read by index. */
export interface ArchiveSummary {
  /** Current messages stored (numbers, not revisions). */
  messages: number;
  /** Highest message sequence number stored; `null` when none. */
  lastSeq: number | null;
  folds: number;
  /** Superseded revisions kept. */
  superseded: number;
}

/** What {@link ConversationArchive.purge} removed: counts of current messages, fold records and older revisions. */
export interface PurgeOutcome {
  messages: number;
  folds: number;
  superseded: number;
}

/** Options of {@link ConversationArchive.idleKeys}. */
export interface IdleKeysOptions {
  /** Only keys after this one (a page's last key), in key order. @default from the first key */
  after?: string;
  /** At most this many keys (1 to 10 000). @default 1000 */
  limit?: number;
}

/**
 * A full-text search of one conversation's messages (see `search-index.ts`): the sequence numbers, from `firstSeq` to
 * `lastSeq`, of the messages whose searchable words hold every term (each term's words in a row).
 */
export interface SearchRequest {
  /** 1 to 16 terms in `searchWords` form (lower case, letters and digits, single spaces). */
  terms: readonly string[];
  firstSeq: number;
  lastSeq: number;
  /** Most numbers returned (the lowest that match), 1 to 10 000. */
  limit: number;
}

/**
 * The conversation archive: every message ever appended, kept in full and in order, before it can leave the live
 * context (folded, clipped, evicted, rewound or cleared), and every fold record. Keyed by the workflow id (`key`),
 * which the activities take from Temporal, never from their input. Writes are transactional and idempotent by number
 * and content, because the activities that write them are retried; reads go by index. Every method validates its
 * input first and changes nothing on bad input.
 *
 * Errors: {@link ArchiveInputError} for bad input (not retryable), {@link ArchiveGapError} for an append past the end,
 * {@link ArchiveUnavailableError} when the database cannot be reached after the driver's own retries (retryable),
 * {@link ArchiveError} otherwise.
 */
export interface ConversationArchive {
  /** The driver's name, for messages: `sqlite` or `postgres`. */
  readonly driver: string;
  /**
   * Stores `messages` as seq `startSeq`, `startSeq+1`, … in one transaction. A number already stored with the same
   * content hash is left alone; with a different hash the new content becomes its next revision.
   * @throws ArchiveGapError when `startSeq` is past the next free number (a gap would hide a lost message).
   */
  append(key: string, startSeq: number, messages: readonly unknown[]): Promise<WriteOutcome>;
  /** The current messages with these sequence numbers, in the order asked. @throws ArchiveError if one is missing. */
  read(key: string, seqs: readonly number[]): Promise<ArchivedMessage[]>;
  /** The current messages numbered `firstSeq`..`lastSeq` (inclusive) that exist, in order. */
  readRange(key: string, firstSeq: number, lastSeq: number): Promise<ArchivedMessage[]>;
  /** Every current message in order (use {@link readRange} for large conversations). */
  readAll(key: string): Promise<ArchivedMessage[]>;
  /** Stores a fold record under `record.number`, with the same revision rule as messages. */
  recordFold(key: string, record: FoldRecord): Promise<WriteOutcome>;
  /**
   * The sequence numbers of the current messages that match, ascending, at most `request.limit` of them.
   * @throws ArchiveInputError for a malformed request; ArchiveError when the database has no search index yet (a
   *   read-only archive whose worker has not migrated it).
   */
  search(key: string, request: SearchRequest): Promise<number[]>;
  /** Every current fold record, by number. */
  folds(key: string): Promise<FoldRecord[]>;
  /**
   * Stores a fold's summary under its request digest (the fold record's `requestDigest`); the same digest written
   * again (a retried summarize activity) keeps the latest text.
   */
  recordSummary(key: string, summary: FoldSummaryText): Promise<void>;
  /** Every stored summary of the conversation, in the order they were first stored. */
  summaries(key: string): Promise<StoredSummary[]>;
  /** Counts, read by index. */
  summary(key: string): Promise<ArchiveSummary>;
  /** Every superseded revision, by kind, number and revision. */
  superseded(key: string): Promise<SupersededRevision[]>;
  /**
   * Erases everything stored under `key` (messages, fold records, superseded revisions) in one transaction, for a
   * deleted conversation or one past its retention. Idempotent: a key with nothing stored returns zeros. SQLite
   * overwrites the freed pages (`secure_delete`) and checkpoints its journal, so no text stays in the files.
   */
  purge(key: string): Promise<PurgeOutcome>;
  /**
   * Keys whose newest stored entry was written before `before` (candidates for retention), in key order, one page.
   * A scan of the whole table: meant for a periodic sweep, not for a request path.
   */
  idleKeys(before: Date, options?: IdleKeysOptions): Promise<string[]>;
  /** Releases the database (connections, file handles). The archive cannot be used afterwards. */
  close(): Promise<void>;
}

/** The archive cannot serve a request; the message names the conversation and what is missing. */
export class ArchiveError extends Error {
  override readonly name: string = 'ArchiveError';
}

/** Bad input (key, numbers, values, sizes): nothing was stored; retrying the same call fails the same way. */
export class ArchiveInputError extends ArchiveError {
  override readonly name: string = 'ArchiveInputError';
}

/** An append that would leave a gap in the sequence numbers: nothing was stored. */
export class ArchiveGapError extends ArchiveError {
  override readonly name: string = 'ArchiveGapError';
}

/** The database could not be reached (or stayed busy) through the driver's retries; the call can be retried later. */
export class ArchiveUnavailableError extends ArchiveError {
  override readonly name: string = 'ArchiveUnavailableError';
}

/** The archive cannot be opened as configured (bad URL, credentials, path or schema version): the worker stops. */
export class ArchiveConfigError extends ArchiveError {
  override readonly name: string = 'ArchiveConfigError';
}

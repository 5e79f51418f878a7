/**
 * What every archive driver does before and after its database: each method of {@link ConversationArchive} checks its
 * arguments (the key, the sequence numbers, the record, the request) and seals or opens the rows the same way for
 * SQLite and PostgreSQL, so a driver implements only the storage steps below, on values already checked. A refused
 * argument rejects the call's promise with an `ArchiveInputError` before the database is touched.
 */
import type { FoldRecord } from '../core/fold/fold-record';
import type {
  ArchivedMessage,
  ArchiveSummary,
  ConversationArchive,
  EntryKind,
  FoldSummaryText,
  IdleKeysOptions,
  PurgeOutcome,
  SearchRequest,
  StoredSummary,
  SupersededRevision,
  WriteOutcome,
} from './archive';
import type { ArchiveCipher } from './cipher';
import {
  checkFoldRecord,
  checkIdleKeys,
  checkKey,
  checkNumber,
  checkSeqs,
  prepareEntries,
  type IdleQuery,
  type PreparedEntry,
} from './entries';
import { missingSeqs, orderAsAsked } from './read-order';
import { checkSearch, mergeMatches, searchVariants, type SearchVariant } from './search-index';
import { SealedRows, type SealedEntry, type SealedSummary } from './sealed-rows';
import { checkSummary } from './summaries';

/** A step of a driver: SQLite answers at once, PostgreSQL later. */
type Answer<T> = T | Promise<T>;

/** Where a search looks, checked: sequence numbers from `firstSeq` to `lastSeq`, at most `limit` of them. */
export type SearchWindow = Omit<SearchRequest, 'terms'>;

/** A superseded revision as a driver reads it, before it is opened. */
export type SealedSuperseded = SealedEntry & { kind: EntryKind; storedAt: string; supersededAt: string };

export abstract class CheckedArchive implements ConversationArchive {
  abstract readonly driver: string;
  /** Seals what is written and opens what is read, with the archive's cipher (none: plain). */
  protected readonly rows: SealedRows;

  protected constructor(protected readonly cipher: ArchiveCipher | undefined) {
    this.rows = new SealedRows(cipher);
  }

  // Rows written and read: their arguments checked here, the rows sealed and opened by `rows`.

  async append(key: string, startSeq: number, messages: readonly unknown[]): Promise<WriteOutcome> {
    checkKey(key);
    return this.write(key, 'message', prepareEntries('message', startSeq, messages));
  }

  async recordFold(key: string, record: FoldRecord): Promise<WriteOutcome> {
    checkKey(key);
    return this.write(key, 'fold', prepareEntries('fold', checkFoldRecord(record), [record]));
  }

  async read(key: string, seqs: readonly number[]): Promise<ArchivedMessage[]> {
    checkKey(key);
    const wanted = checkSeqs(seqs);
    const found = await this.entriesAt(key, wanted);
    missingSeqs(key, wanted, found);
    return orderAsAsked(
      wanted,
      found.map((r) => this.rows.message(key, r))
    );
  }

  async readRange(key: string, firstSeq: number, lastSeq: number): Promise<ArchivedMessage[]> {
    checkKey(key);
    const first = checkNumber(firstSeq, 'firstSeq');
    const last = checkNumber(lastSeq, 'lastSeq');
    return (await this.entryRange(key, 'message', first, last)).map((r) => this.rows.message(key, r));
  }

  readAll(key: string): Promise<ArchivedMessage[]> {
    return this.readRange(key, 0, Number.MAX_SAFE_INTEGER);
  }

  folds(key: string): Promise<FoldRecord[]> {
    return this.opened(
      key,
      () => this.entryRange(key, 'fold', 0, Number.MAX_SAFE_INTEGER),
      (r) => this.rows.fold(key, r)
    );
  }

  async recordSummary(key: string, summary: FoldSummaryText): Promise<void> {
    checkKey(key);
    await this.putSummary(key, this.rows.sealSummary(key, checkSummary(summary)));
  }

  summaries(key: string): Promise<StoredSummary[]> {
    return this.opened(
      key,
      () => this.summaryRows(key),
      (r) => this.rows.summary(key, r)
    );
  }

  superseded(key: string): Promise<SupersededRevision[]> {
    return this.opened(
      key,
      () => this.supersededRows(key),
      (r) => this.rows.superseded(key, r)
    );
  }

  // Answers the driver's database gives for a checked key or request.

  /** Each form of the terms (plain, and per key of the cipher) is looked for in the rows of its form. */
  async search(key: string, request: SearchRequest): Promise<number[]> {
    checkKey(key);
    const { terms, ...within } = checkSearch(request);
    const found: number[][] = [];
    for (const variant of searchVariants(key, terms, this.cipher)) found.push(await this.matches(key, variant, within));
    return mergeMatches(found, within.limit);
  }

  async summary(key: string): Promise<ArchiveSummary> {
    checkKey(key);
    return this.counts(key);
  }

  async purge(key: string): Promise<PurgeOutcome> {
    checkKey(key);
    return this.remove(key);
  }

  async idleKeys(before: Date, options?: IdleKeysOptions): Promise<string[]> {
    return this.idle(checkIdleKeys(before, options));
  }

  abstract close(): Promise<void>;

  /** @returns the rows `read` gives for a checked `key`, each opened by `open`. */
  private async opened<Row, T>(key: string, read: () => Answer<Row[]>, open: (row: Row) => T): Promise<T[]> {
    checkKey(key);
    return (await read()).map(open);
  }

  /** Stores prepared entries of one kind (a gap check for messages, then the rows and their revisions). */
  protected abstract write(key: string, kind: EntryKind, entries: PreparedEntry[]): Answer<WriteOutcome>;
  /** The stored messages among `seqs`, in any order; a number not stored is left out. */
  protected abstract entriesAt(key: string, seqs: readonly number[]): Answer<SealedEntry[]>;
  /** The stored entries of one kind from `first` to `last`, in order. */
  protected abstract entryRange(key: string, kind: EntryKind, first: number, last: number): Answer<SealedEntry[]>;
  /** The lowest numbers, at most `limit`, of the messages in the window whose rows of the variant's form match it. */
  protected abstract matches(key: string, variant: SearchVariant, within: SearchWindow): Answer<number[]>;
  protected abstract putSummary(key: string, row: SealedSummary): Answer<void>;
  /** The stored summaries, in the order first stored. */
  protected abstract summaryRows(key: string): Answer<(SealedSummary & { storedAt: string })[]>;
  protected abstract counts(key: string): Answer<ArchiveSummary>;
  protected abstract supersededRows(key: string): Answer<SealedSuperseded[]>;
  protected abstract remove(key: string): Answer<PurgeOutcome>;
  protected abstract idle(query: IdleQuery): Answer<string[]>;
}

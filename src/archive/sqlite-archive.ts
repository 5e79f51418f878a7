import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import {
  ArchiveConfigError,
  ArchiveError,
  ArchiveUnavailableError,
  type ArchiveSummary,
  type EntryKind,
  type PurgeOutcome,
  type WriteOutcome,
} from './archive';
import { CheckedArchive, type SealedSuperseded, type SearchWindow } from './checked-archive';
import { checkNoGap, type IdleQuery, type PreparedEntry } from './entries';
import type { ArchiveCipher } from './cipher';
import { pendingMigrations, schemaVersionTable } from './migrations';
import { ftsQuery, paddedTerm, searchRows, type SearchRow, type SearchVariant } from './search-index';
import type { SealedEntry, SealedHead, SealedSummary } from './sealed-rows';
import { GroupCommit } from './group-commit';

/** Options of {@link SqliteArchive.open}. */
export interface SqliteArchiveOptions {
  /** The database file; its folder is created. */
  path: string;
  /** How long a write waits for another process's transaction on the same file. @default 5000 */
  busyTimeoutMs?: number;
  /**
   * Open an existing file for reading only (a client re-materialising lightened messages): writes fail, nothing is
   * created or migrated. @default false
   */
  readOnly?: boolean;
  /** Encrypts what it writes and opens encrypted rows (`archive.encrypt`); without it, writes are plain. */
  cipher?: ArchiveCipher;
}

type EntryRow = SealedEntry;

/**
 * The embedded archive: one SQLite file (WAL journal, `synchronous = FULL`, so a commit survives a power loss), one
 * immediate transaction per write, so several processes on one host can share the file. Every read is by primary key.
 */
export class SqliteArchive extends CheckedArchive {
  readonly driver = 'sqlite';
  private readonly statements;
  /** Search statements by number of terms (prepared on first use: an old read-only file may lack the index). */
  private readonly searches = new Map<number, Database.Statement<unknown[], { seq: number }>>();
  /** Prepared on first use: a read-only reader of a database a worker has not migrated yet still opens. */
  private summaryStatements: ReturnType<typeof prepareSummaryStatements> | undefined;
  /** Prepared on first write, for the same reason (they name the key id column). */
  private writeStatements: ReturnType<typeof prepareWriteStatements> | undefined;
  /** `key_id`, or `NULL` in a read-only file written before the column existed (schema version 4). */
  private readonly keyId: string;
  /** The writes waiting for the next commit. */
  readonly commits: GroupCommit;

  private constructor(
    private readonly db: Database.Database,
    cipher: ArchiveCipher | undefined
  ) {
    super(cipher);
    const hasKeyId = db
      .prepare<[], { name: string }>("SELECT name FROM pragma_table_info('archive_entries')")
      .all()
      .some((c) => c.name === 'key_id');
    this.keyId = hasKeyId ? 'key_id' : 'NULL';
    this.commits = new GroupCommit(db, (fn) => this.guard(fn));
    const entries = 'FROM archive_entries WHERE workflow_id = ? AND kind = ?';
    const columns = `seq, revision, hash, body, ${this.keyId} AS keyId`;
    this.statements = {
      lastSeq: db.prepare<[string, EntryKind], { seq: number }>(`SELECT seq ${entries} ORDER BY seq DESC LIMIT 1`),
      heads: db.prepare<[string, EntryKind, number, number], SealedHead>(
        `SELECT seq, revision, hash, ${this.keyId} AS keyId ${entries} AND seq BETWEEN ? AND ?`
      ),
      range: db.prepare<[string, EntryKind, number, number], EntryRow>(
        `SELECT ${columns} ${entries} AND seq BETWEEN ? AND ? ORDER BY seq`
      ),
      one: db.prepare<[string, EntryKind, number], EntryRow>(`SELECT ${columns} ${entries} AND seq = ?`),
      count: db.prepare<[string, EntryKind], { n: number }>(`SELECT count(*) AS n ${entries}`),
      supersededCount: db.prepare<[string], { n: number }>(
        'SELECT count(*) AS n FROM archive_superseded WHERE workflow_id = ?'
      ),
      supersededAll: db.prepare<[string], EntryRow & { kind: EntryKind; stored_at: string; superseded_at: string }>(
        `SELECT kind, ${columns}, stored_at, superseded_at FROM archive_superseded
         WHERE workflow_id = ? ORDER BY kind, seq, revision`
      ),
      purgeEntries: db.prepare<[string, EntryKind]>(`DELETE ${entries}`),
      purgeSuperseded: db.prepare<[string]>('DELETE FROM archive_superseded WHERE workflow_id = ?'),
      idle: db.prepare<[string, string, number], { workflow_id: string }>(
        `SELECT workflow_id FROM archive_entries WHERE workflow_id > ?
         GROUP BY workflow_id HAVING max(stored_at) < ? ORDER BY workflow_id LIMIT ?`
      ),
    };
  }

  /** The index writer's statements, prepared when first written (a read-only file may predate the index). */
  private indexer?: (key: string, rows: readonly SearchRow[]) => void;

  /**
   * Opens (creating if needed) the database file and applies pending migrations; with `readOnly`, opens it as it is.
   * @throws ArchiveConfigError naming the file when it cannot be opened or its schema is newer than this code.
   */
  static open(options: SqliteArchiveOptions): SqliteArchive {
    let db: Database.Database | undefined;
    try {
      if (options.readOnly) {
        db = new Database(options.path, { readonly: true, fileMustExist: true });
        db.pragma(`busy_timeout = ${Math.max(0, Math.floor(options.busyTimeoutMs ?? 5000))}`);
        return new SqliteArchive(db, options.cipher);
      }
      mkdirSync(dirname(options.path), { recursive: true });
      db = new Database(options.path);
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = FULL');
      // Deleted rows (a purge, a superseded body) are overwritten with zeros, not left in free pages of the file.
      db.pragma('secure_delete = ON');
      db.pragma(`busy_timeout = ${Math.max(0, Math.floor(options.busyTimeoutMs ?? 5000))}`);
      migrate(db);
      return new SqliteArchive(db, options.cipher);
    } catch (err) {
      db?.close();
      throw new ArchiveConfigError(`cannot open the SQLite archive at ${options.path}: ${errorMessage(err)}`);
    }
  }

  protected entriesAt(key: string, seqs: readonly number[]): SealedEntry[] {
    const found = this.guard(() =>
      this.db.transaction(() => seqs.map((seq) => this.statements.one.get(key, 'message', seq)))()
    );
    return found.filter((r): r is EntryRow => r !== undefined);
  }

  protected entryRange(key: string, kind: EntryKind, first: number, last: number): SealedEntry[] {
    return this.guard(() => this.statements.range.all(key, kind, first, last));
  }

  protected matches(
    key: string,
    { keyId, terms }: SearchVariant,
    { firstSeq, lastSeq, limit }: SearchWindow
  ): number[] {
    const statement = this.guard(() => this.searchStatement(terms.length));
    return this.guard(() =>
      statement.all(ftsQuery(terms), key, firstSeq, lastSeq, keyId, ...terms.map(paddedTerm), limit)
    ).map((r) => r.seq);
  }

  protected putSummary(key: string, row: SealedSummary): void {
    this.guard(() =>
      this.db.transaction(() => this.summarySql().put.run({ key, ...row, at: new Date().toISOString() })).immediate()
    );
  }

  protected summaryRows(key: string): (SealedSummary & { storedAt: string })[] {
    return this.guard(() => this.summarySql().all.all(key)).map(({ stored_at, ...r }) => ({
      ...r,
      storedAt: stored_at,
    }));
  }

  protected counts(key: string): ArchiveSummary {
    return this.guard(() =>
      this.db.transaction(() => ({
        messages: this.statements.count.get(key, 'message')?.n ?? 0,
        lastSeq: this.statements.lastSeq.get(key, 'message')?.seq ?? null,
        folds: this.statements.count.get(key, 'fold')?.n ?? 0,
        superseded: this.statements.supersededCount.get(key)?.n ?? 0,
      }))()
    );
  }

  protected supersededRows(key: string): SealedSuperseded[] {
    return this.guard(() => this.statements.supersededAll.all(key)).map(({ stored_at, superseded_at, ...r }) => ({
      ...r,
      storedAt: stored_at,
      supersededAt: superseded_at,
    }));
  }

  protected remove(key: string): PurgeOutcome {
    const s = this.statements;
    const outcome = this.guard(() =>
      this.db
        .transaction(() => {
          // Prepared here, not with the others: a read-only file of an older schema has neither table.
          // The FTS5 rows follow through the search table's delete trigger; its secure-delete keeps no term behind.
          this.db.prepare('DELETE FROM archive_search WHERE workflow_id = ?').run(key);
          this.db.prepare('DELETE FROM fold_summaries WHERE workflow_id = ?').run(key);
          return {
            messages: s.purgeEntries.run(key, 'message').changes,
            folds: s.purgeEntries.run(key, 'fold').changes,
            superseded: s.purgeSuperseded.run(key).changes,
          };
        })
        .immediate()
    );
    // The journal still holds the pages as they were before the purge: copy the zeroed ones back and empty it.
    this.guard(() => this.db.pragma('wal_checkpoint(TRUNCATE)'));
    return outcome;
  }

  protected idle({ before, after, limit }: IdleQuery): string[] {
    return this.guard(() => this.statements.idle.all(after, before, limit)).map((r) => r.workflow_id);
  }

  close(): Promise<void> {
    return settle(() => {
      if (!this.db.open) return;
      this.commits.flush();
      this.db.close();
    });
  }

  private summarySql(): ReturnType<typeof prepareSummaryStatements> {
    this.summaryStatements ??= prepareSummaryStatements(this.db, this.keyId);
    return this.summaryStatements;
  }

  private writeSql(): ReturnType<typeof prepareWriteStatements> {
    this.writeStatements ??= prepareWriteStatements(this.db);
    return this.writeStatements;
  }

  /** Queued for the next group commit (one transaction, one fsync, for the writes of one event-loop turn). */
  protected write(key: string, kind: EntryKind, entries: PreparedEntry[]): Promise<WriteOutcome> {
    return this.commits.add(() => this.writeNow(key, kind, entries));
  }

  /** One immediate (write-locked) transaction, a savepoint in a group commit: gap check, heads, plan, the rows. */
  private writeNow(key: string, kind: EntryKind, entries: PreparedEntry[]): WriteOutcome {
    const s = this.statements;
    const w = this.guard(() => this.writeSql());
    return this.guard(() =>
      this.db
        .transaction(() => {
          const first = entries[0]?.seq;
          if (first === undefined) return { stored: 0, unchanged: 0, superseded: [] };
          if (kind === 'message') checkNoGap(key, first, s.lastSeq.get(key, kind)?.seq ?? null);
          const last = first + entries.length - 1;
          // Fold heads with their body: an older record arriving late does not replace the current one.
          const heads = kind === 'fold' ? s.range.all(key, kind, first, last) : s.heads.all(key, kind, first, last);
          const plan = this.rows.plan(key, kind, entries, heads);
          const now = new Date().toISOString();
          for (const { kept: e, head } of plan.stale) {
            w.keepStale.run(key, kind, e.seq, e.revision, e.hash, e.body, e.keyId, now, now);
            w.restamp.run(head.revision, head.body, head.keyId, key, kind, e.seq);
          }
          for (const e of plan.supersedes) {
            w.keepOld.run(now, key, kind, e.seq);
            w.replace.run(e.revision, e.hash, e.body, e.keyId, now, key, kind, e.seq);
          }
          for (const e of plan.inserts) w.insert.run(key, kind, e.seq, e.hash, e.body, e.keyId, now);
          if (kind === 'message') this.index(key, plan.search);
          return plan.outcome;
        })
        .immediate()
    );
  }

  /** Replaces the search rows of the messages `rows` index (inside the caller's transaction). */
  private index(key: string, rows: readonly SearchRow[]): void {
    this.indexer ??= searchIndexer(this.db);
    this.indexer(key, rows);
  }

  /** The search of `n` terms: FTS5 finds the rows holding every term's words, `instr` keeps those holding them in a row. */
  private searchStatement(n: number): Database.Statement<unknown[], { seq: number }> {
    let statement = this.searches.get(n);
    if (!statement) {
      try {
        statement = this.db.prepare<unknown[], { seq: number }>(
          `SELECT DISTINCT s.seq AS seq FROM archive_search_fts f JOIN archive_search s ON s.rowid = f.rowid
           WHERE archive_search_fts MATCH ? AND s.workflow_id = ? AND s.seq BETWEEN ? AND ? AND ${this.keyId === 'NULL' ? 'NULL' : 's.key_id'} IS ?
           ${"AND instr(' ' || s.words || ' ', ?) > 0 ".repeat(n)}ORDER BY s.seq LIMIT ?`
        );
      } catch (err) {
        throw new ArchiveError(
          `the SQLite archive has no search index yet (start a worker of this version once to add it): ${errorMessage(err)}`
        );
      }
      this.searches.set(n, statement);
    }
    return statement;
  }

  /** Runs a database call, turning "busy past the timeout" into a retryable error and a closed archive into a clear one. */
  private guard<T>(fn: () => T): T {
    if (!this.db.open) throw new ArchiveError('the SQLite archive is closed');
    // Writes waiting for the group commit go first: every other access finds the archive as the calls before it left it.
    this.commits.flush();
    try {
      return fn();
    } catch (err) {
      if (err instanceof ArchiveError) throw err;
      const code = (err as { code?: unknown }).code;
      if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED')
        throw new ArchiveUnavailableError(`the SQLite archive stayed locked by another process: ${errorMessage(err)}`);
      throw err;
    }
  }
}

/** The statements of `fold_summaries` (version 3 of the schema). */
function prepareSummaryStatements(db: Database.Database, keyId: string) {
  return {
    put: db.prepare<[SealedSummary & { key: string; at: string }]>(
      `INSERT INTO fold_summaries (workflow_id, digest, ordinal, kind, body, key_id, stored_at)
       VALUES (@key, @digest, (SELECT coalesce(max(ordinal), 0) + 1 FROM fold_summaries WHERE workflow_id = @key),
         @kind, @body, @keyId, @at)
       ON CONFLICT (workflow_id, digest) DO UPDATE SET kind = excluded.kind, body = excluded.body,
         key_id = excluded.key_id, stored_at = excluded.stored_at
       WHERE body <> excluded.body OR kind <> excluded.kind`
    ),
    all: db.prepare<[string], SealedSummary & { stored_at: string }>(
      `SELECT digest, kind, body, ${keyId} AS keyId, stored_at FROM fold_summaries WHERE workflow_id = ? ORDER BY ordinal`
    ),
  };
}

/** The statements of a write (version 4 of the schema: they name `key_id`). */
function prepareWriteStatements(db: Database.Database) {
  const entries = 'FROM archive_entries WHERE workflow_id = ? AND kind = ?';
  type Kind = EntryKind;
  type Key = string | null;
  return {
    keepOld: db.prepare<[string, string, Kind, number]>(
      `INSERT INTO archive_superseded (workflow_id, kind, seq, revision, hash, body, key_id, stored_at, superseded_at)
       SELECT workflow_id, kind, seq, revision, hash, body, key_id, stored_at, ? ${entries} AND seq = ?`
    ),
    replace: db.prepare<[number, string, string, Key, string, string, Kind, number]>(
      `UPDATE archive_entries SET revision = ?, hash = ?, body = ?, key_id = ?, stored_at = ?
       WHERE workflow_id = ? AND kind = ? AND seq = ?`
    ),
    insert: db.prepare<[string, Kind, number, string, string, Key, string]>(
      `INSERT INTO archive_entries (workflow_id, kind, seq, revision, hash, body, key_id, stored_at)
       VALUES (?, ?, ?, 0, ?, ?, ?, ?)`
    ),
    keepStale: db.prepare<[string, Kind, number, number, string, string, Key, string, string]>(
      `INSERT INTO archive_superseded (workflow_id, kind, seq, revision, hash, body, key_id, stored_at, superseded_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`
    ),
    restamp: db.prepare<[number, string, Key, string, Kind, number]>(
      `UPDATE archive_entries SET revision = ?, body = ?, key_id = ? WHERE workflow_id = ? AND kind = ? AND seq = ?`
    ),
  };
}

/** Runs a synchronous call as a promise, so a throw becomes a rejection like the other drivers'. */
function settle<T>(fn: () => T): Promise<T> {
  try {
    return Promise.resolve(fn());
  } catch (err) {
    return Promise.reject(err instanceof Error ? err : new Error(String(err)));
  }
}

/** Applies pending migrations in one immediate transaction (a second process waits, then finds nothing to do). */
function migrate(db: Database.Database): void {
  db.transaction(() => {
    db.exec(schemaVersionTable);
    const applied = db
      .prepare<[], { version: number }>('SELECT version FROM archive_schema_version')
      .all()
      .map((r) => r.version);
    for (const m of pendingMigrations(applied)) {
      db.exec(m.sqlite);
      if (m.backfill === 'search') backfillSearch(db);
      db.prepare('INSERT INTO archive_schema_version (version, name, applied_at) VALUES (?, ?, ?)').run(
        m.version,
        m.name,
        new Date().toISOString()
      );
    }
  }).immediate();
}

/**
 * @returns a writer of search rows: the old rows of each message go, its new ones come (the FTS5 triggers follow).
 * @param keyIds whether the table has its key id column yet (the backfill of version 2 runs before version 4 adds it,
 *   and then only meets plain rows).
 */
function searchIndexer(db: Database.Database, keyIds = true): (key: string, rows: readonly SearchRow[]) => void {
  const remove = db.prepare<[string, number]>('DELETE FROM archive_search WHERE workflow_id = ? AND seq = ?');
  const add = db.prepare<unknown[]>(
    keyIds
      ? 'INSERT INTO archive_search (workflow_id, seq, part, hash, words, key_id) VALUES (?, ?, ?, ?, ?, ?)'
      : 'INSERT INTO archive_search (workflow_id, seq, part, hash, words) VALUES (?, ?, ?, ?, ?)'
  );
  return (key, rows) => {
    for (const seq of new Set(rows.map((r) => r.seq))) remove.run(key, seq);
    for (const r of rows) add.run(key, r.seq, r.part, r.hash, r.words, ...(keyIds ? [r.keyId] : []));
  };
}

/** Indexes every message already stored, a page at a time (inside the migration's transaction). */
function backfillSearch(db: Database.Database): void {
  const page = db.prepare<[number], { id: number; workflow_id: string; seq: number; hash: string; body: string }>(
    `SELECT rowid AS id, workflow_id, seq, hash, body FROM archive_entries
     WHERE kind = 'message' AND rowid > ? ORDER BY rowid LIMIT 500`
  );
  const write = searchIndexer(db, false);
  for (let after = 0; ;) {
    const rows = page.all(after);
    if (rows.length === 0) return;
    for (const r of rows) write(r.workflow_id, searchRows([r]));
    after = rows[rows.length - 1]!.id;
  }
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

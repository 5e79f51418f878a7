import { Pool, type PoolClient } from 'pg';
import {
  ArchiveConfigError,
  ArchiveError,
  type ArchiveSummary,
  type EntryKind,
  type PurgeOutcome,
  type WriteOutcome,
} from './archive';
import { CheckedArchive, type SealedSuperseded, type SearchWindow } from './checked-archive';
import { isTransientDatabaseError, withConnectionRetry, type RetryOptions } from './connection-retry';
import { checkNoGap, type IdleQuery, type PreparedEntry } from './entries';
import type { ArchiveCipher } from './cipher';
import { pendingMigrations, schemaVersionTable } from './migrations';
import { paddedTerm, searchRows, type SearchRow, type SearchVariant } from './search-index';
import type { SealedEntry, SealedSummary } from './sealed-rows';

/** Options of {@link PostgresArchive.open}. */
export interface PostgresArchiveOptions {
  /** `postgres://user[:password]@host[:port]/database[?sslmode=…]`; libpq variables (PGPASSWORD, …) fill the gaps. */
  url: string;
  /** Connections kept per worker process. @default 10 */
  poolSize?: number;
  /** How long opening one connection may take. @default 5000 */
  connectTimeoutMs?: number;
  /** Retries of a call through a connection failure. @default {@link RetryOptions} defaults */
  retry?: RetryOptions;
  /**
   * Every transaction read-only (`default_transaction_read_only`), no migration: for a client re-materialising
   * lightened messages. @default false
   */
  readOnly?: boolean;
  /** Encrypts what it writes and opens encrypted rows (`archive.encrypt`); without it, writes are plain. */
  cipher?: ArchiveCipher;
}

/** Any fixed number: the advisory lock two workers starting at once take around the migrations. */
const MIGRATION_LOCK = 7_314_052_118;

/** A row as `pg` returns it (bigint as a string). */
type EntryRow = Omit<SealedEntry, 'seq'> & { seq: string };

/**
 * The shared archive for several workers: PostgreSQL through `pg`. Each write is one transaction holding an advisory
 * lock on its workflow id, so concurrent writers of one conversation (two workers, a retried activity) serialise and
 * see each other's rows. Calls retry through connection failures with back-off. The URL's password never appears in
 * messages.
 */
export class PostgresArchive extends CheckedArchive {
  readonly driver = 'postgres';
  private closed = false;
  /** `key_id`, or `NULL` for a reader of a database written before the column existed (schema version 4). */
  private keyId = 'key_id';

  private constructor(
    private readonly pool: Pool,
    private readonly retry: RetryOptions,
    cipher: ArchiveCipher | undefined
  ) {
    super(cipher);
  }

  /**
   * Connects, checks the credentials and applies pending migrations.
   * @throws ArchiveConfigError with one line naming the (password-less) URL and the cause: a malformed URL, an
   *   unreachable server, wrong credentials, a missing database, or a schema newer than this code.
   */
  static async open(options: PostgresArchiveOptions): Promise<PostgresArchive> {
    const shown = redactUrl(options.url);
    let parsed: URL;
    try {
      parsed = new URL(options.url);
    } catch {
      throw new ArchiveConfigError(`the archive database URL is not a URL: ${shown}`);
    }
    if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:')
      throw new ArchiveConfigError(`the archive database URL must start with postgres:// (got ${shown})`);
    const pool = new Pool({
      connectionString: options.url,
      max: options.poolSize ?? 10,
      connectionTimeoutMillis: options.connectTimeoutMs ?? 5000,
      idleTimeoutMillis: 30_000,
      ...(options.readOnly ? { options: '-c default_transaction_read_only=on' } : {}),
    });
    // An idle connection the server drops emits 'error' on the pool; the next call reconnects (and retries).
    pool.on('error', () => {});
    const archive = new PostgresArchive(pool, options.retry ?? {}, options.cipher);
    try {
      // A reader only checks the schema is there (the worker creates it), and which version of it.
      const open = async (): Promise<void> => {
        if (!options.readOnly) return migrate(pool);
        await pool.query('SELECT 1 FROM archive_entries LIMIT 1');
        const { rows } = await pool.query(
          `SELECT 1 FROM information_schema.columns
           WHERE table_schema = current_schema() AND table_name = 'archive_entries' AND column_name = 'key_id'`
        );
        if (rows.length === 0) archive.keyId = 'NULL';
      };
      await withConnectionRetry('opening the archive', open, { attempts: 3 });
    } catch (err) {
      await pool.end().catch(() => {});
      const why = (err instanceof Error ? err.message : String(err)).split('\n')[0];
      throw new ArchiveConfigError(`cannot open the PostgreSQL archive at ${shown}: ${why}`);
    }
    return archive;
  }

  protected async entriesAt(key: string, seqs: readonly number[]): Promise<SealedEntry[]> {
    const rows = await this.query<EntryRow>(
      'read',
      `SELECT ${this.columns()} FROM archive_entries
       WHERE workflow_id = $1 AND kind = 'message' AND seq = ANY($2::bigint[])`,
      [key, seqs]
    );
    return rows.map(entry);
  }

  /** The GIN index finds the rows holding every term's words, `strpos` keeps those holding each term's words in a row. */
  protected async matches(key: string, { keyId, terms }: SearchVariant, window: SearchWindow): Promise<number[]> {
    const inRow = terms.map((_t, i) => `AND strpos(' ' || words || ' ', $${i + 7}) > 0`).join(' ');
    try {
      const rows = await this.query<{ seq: string }>(
        'search',
        `SELECT DISTINCT seq FROM archive_search
         WHERE workflow_id = $1 AND seq BETWEEN $2 AND $3 AND tsv @@ plainto_tsquery('simple', $4)
           AND ${this.keyId} IS NOT DISTINCT FROM $6 ${inRow}
         ORDER BY seq LIMIT $5`,
        [key, window.firstSeq, window.lastSeq, terms.join(' '), window.limit, keyId, ...terms.map(paddedTerm)]
      );
      return rows.map((r) => Number(r.seq));
    } catch (err) {
      if ((err as { code?: unknown }).code === '42P01')
        throw new ArchiveError('the PostgreSQL archive has no search index yet (start a worker of this version once)');
      throw err;
    }
  }

  protected async putSummary(key: string, { digest, kind, body, keyId }: SealedSummary): Promise<void> {
    await this.query(
      'recordSummary',
      `INSERT INTO fold_summaries (workflow_id, digest, kind, body, key_id) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (workflow_id, digest) DO UPDATE SET kind = excluded.kind, body = excluded.body,
         key_id = excluded.key_id, stored_at = now()
       WHERE fold_summaries.body <> excluded.body OR fold_summaries.kind <> excluded.kind`,
      [key, digest, kind, body, keyId]
    );
  }

  protected async summaryRows(key: string): Promise<(SealedSummary & { storedAt: string })[]> {
    const rows = await this.query<SealedSummary & { stored_at: Date }>(
      'summaries',
      `SELECT digest, kind, body, ${this.keyId} AS "keyId", stored_at FROM fold_summaries
       WHERE workflow_id = $1 ORDER BY ordinal`,
      [key]
    );
    return rows.map(({ stored_at, ...r }) => ({ ...r, storedAt: stored_at.toISOString() }));
  }

  protected async counts(key: string): Promise<ArchiveSummary> {
    const [row] = await this.query<{ messages: string; last_seq: string | null; folds: string; superseded: string }>(
      'summary',
      `SELECT (SELECT count(*) FROM archive_entries WHERE workflow_id = $1 AND kind = 'message') AS messages,
              (SELECT max(seq) FROM archive_entries WHERE workflow_id = $1 AND kind = 'message') AS last_seq,
              (SELECT count(*) FROM archive_entries WHERE workflow_id = $1 AND kind = 'fold') AS folds,
              (SELECT count(*) FROM archive_superseded WHERE workflow_id = $1) AS superseded`,
      [key]
    );
    return {
      messages: Number(row?.messages ?? 0),
      lastSeq: row?.last_seq === null || row?.last_seq === undefined ? null : Number(row.last_seq),
      folds: Number(row?.folds ?? 0),
      superseded: Number(row?.superseded ?? 0),
    };
  }

  protected async supersededRows(key: string): Promise<SealedSuperseded[]> {
    const rows = await this.query<EntryRow & { kind: EntryKind; stored_at: Date; superseded_at: Date }>(
      'superseded',
      `SELECT kind, ${this.columns()}, stored_at, superseded_at FROM archive_superseded
       WHERE workflow_id = $1 ORDER BY kind, seq, revision`,
      [key]
    );
    return rows.map((r) => ({
      ...entry(r),
      kind: r.kind,
      storedAt: r.stored_at.toISOString(),
      supersededAt: r.superseded_at.toISOString(),
    }));
  }

  protected remove(key: string): Promise<PurgeOutcome> {
    return this.transaction(`purge of ${key}`, key, async (c) => {
      const removed = await c.query<{ kind: EntryKind; n: string }>(
        `WITH gone AS (DELETE FROM archive_entries WHERE workflow_id = $1 RETURNING kind)
         SELECT kind, count(*) AS n FROM gone GROUP BY kind`,
        [key]
      );
      const old = await c.query('DELETE FROM archive_superseded WHERE workflow_id = $1', [key]);
      await c.query('DELETE FROM archive_search WHERE workflow_id = $1', [key]);
      await c.query('DELETE FROM fold_summaries WHERE workflow_id = $1', [key]);
      const count = (kind: EntryKind): number => Number(removed.rows.find((r) => r.kind === kind)?.n ?? 0);
      return { messages: count('message'), folds: count('fold'), superseded: old.rowCount ?? 0 };
    });
  }

  protected async idle({ before, after, limit }: IdleQuery): Promise<string[]> {
    const rows = await this.query<{ workflow_id: string }>(
      'idle keys',
      `SELECT workflow_id FROM archive_entries WHERE workflow_id > $1
       GROUP BY workflow_id HAVING max(stored_at) < $2 ORDER BY workflow_id LIMIT $3`,
      [after, before, limit]
    );
    return rows.map((r) => r.workflow_id);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.pool.end();
  }

  protected async entryRange(key: string, kind: EntryKind, first: number, last: number): Promise<SealedEntry[]> {
    const rows = await this.query<EntryRow>(
      'read',
      `SELECT ${this.columns()} FROM archive_entries
       WHERE workflow_id = $1 AND kind = $2 AND seq BETWEEN $3 AND $4 ORDER BY seq`,
      [key, kind, first, last]
    );
    return rows.map(entry);
  }

  /** The columns of a message or fold row, as {@link EntryRow} names them. */
  private columns(): string {
    return `seq, revision, hash, body, ${this.keyId} AS "keyId"`;
  }

  /** One transaction under the workflow id's advisory lock: gap check, current heads, plan, then the rows. */
  protected write(key: string, kind: EntryKind, entries: PreparedEntry[]): Promise<WriteOutcome> {
    const first = entries[0]?.seq;
    if (first === undefined) return Promise.resolve({ stored: 0, unchanged: 0, superseded: [] });
    const last = first + entries.length - 1;
    return this.transaction(`write to ${key}`, key, async (c) => {
      if (kind === 'message') {
        const top = await c.query<{ seq: string }>(
          `SELECT seq FROM archive_entries WHERE workflow_id = $1 AND kind = $2 ORDER BY seq DESC LIMIT 1`,
          [key, kind]
        );
        checkNoGap(key, first, top.rows[0] ? Number(top.rows[0].seq) : null);
      }
      // Fold heads with their body: an older record arriving late does not replace the current one.
      const heads = await c.query<Omit<EntryRow, 'body'> & { body?: string }>(
        `SELECT seq, revision, hash, key_id AS "keyId"${kind === 'fold' ? ', body' : ''} FROM archive_entries
         WHERE workflow_id = $1 AND kind = $2 AND seq BETWEEN $3 AND $4`,
        [key, kind, first, last]
      );
      const plan = this.rows.plan(
        key,
        kind,
        entries,
        heads.rows.map((h) => ({ ...h, seq: Number(h.seq) }))
      );
      for (const { kept: e, head } of plan.stale) {
        await c.query(
          `INSERT INTO archive_superseded (workflow_id, kind, seq, revision, hash, body, key_id, stored_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, now())`,
          [key, kind, e.seq, e.revision, e.hash, e.body, e.keyId]
        );
        await c.query(
          `UPDATE archive_entries SET revision = $4, body = $5, key_id = $6
           WHERE workflow_id = $1 AND kind = $2 AND seq = $3`,
          [key, kind, e.seq, head.revision, head.body, head.keyId]
        );
      }
      if (plan.supersedes.length > 0) {
        const seqs = plan.supersedes.map((e) => e.seq);
        await c.query(
          `INSERT INTO archive_superseded (workflow_id, kind, seq, revision, hash, body, key_id, stored_at)
           SELECT workflow_id, kind, seq, revision, hash, body, key_id, stored_at FROM archive_entries
           WHERE workflow_id = $1 AND kind = $2 AND seq = ANY($3::bigint[])`,
          [key, kind, seqs]
        );
        await c.query(
          `UPDATE archive_entries e
           SET revision = u.revision, hash = u.hash, body = u.body, key_id = u.key_id, stored_at = now()
           FROM unnest($3::bigint[], $4::int[], $5::text[], $6::text[], $7::text[]) AS u(seq, revision, hash, body, key_id)
           WHERE e.workflow_id = $1 AND e.kind = $2 AND e.seq = u.seq`,
          [key, kind, seqs, plan.supersedes.map((e) => e.revision), ...columns(plan.supersedes)]
        );
      }
      if (plan.inserts.length > 0) {
        await c.query(
          `INSERT INTO archive_entries (workflow_id, kind, seq, revision, hash, body, key_id)
           SELECT $1, $2, u.seq, 0, u.hash, u.body, u.key_id
           FROM unnest($3::bigint[], $4::text[], $5::text[], $6::text[]) AS u(seq, hash, body, key_id)`,
          [key, kind, plan.inserts.map((e) => e.seq), ...columns(plan.inserts)]
        );
      }
      if (kind === 'message') await indexSearch(c, key, plan.search);
      return plan.outcome;
    });
  }

  private query<R extends object>(what: string, sql: string, params: unknown[]): Promise<R[]> {
    this.checkOpen();
    return withConnectionRetry(what, async () => (await this.pool.query<R>(sql, params)).rows, this.retry);
  }

  private transaction<T>(what: string, key: string, fn: (client: PoolClient) => Promise<T>): Promise<T> {
    this.checkOpen();
    return withConnectionRetry(
      what,
      async () => {
        const client = await this.pool.connect();
        // A connection lost while checked out also emits 'error' on the client; the failing query reports it.
        const ignore = (): void => {};
        client.on('error', ignore);
        let failure: unknown;
        try {
          await client.query('BEGIN');
          await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [key]);
          const out = await fn(client);
          await client.query('COMMIT');
          return out;
        } catch (err) {
          failure = err;
          await client.query('ROLLBACK').catch(() => {});
          throw err;
        } finally {
          client.off('error', ignore);
          // A connection that failed mid-transaction is discarded, not handed to the next call.
          client.release(failure !== undefined && isTransientDatabaseError(failure) ? (failure as Error) : undefined);
        }
      },
      this.retry
    );
  }

  private checkOpen(): void {
    if (this.closed) throw new ArchiveError('the PostgreSQL archive is closed');
  }
}

/** The hash, body and key id columns of sealed entries, as three arrays for `unnest`. */
function columns(entries: readonly SealedEntry[]): [string[], string[], (string | null)[]] {
  return [entries.map((e) => e.hash), entries.map((e) => e.body), entries.map((e) => e.keyId)];
}

function entry(row: EntryRow): SealedEntry {
  return { ...row, seq: Number(row.seq) };
}

/** Applies pending migrations in one transaction under an advisory lock (a second worker waits, then does nothing). */
async function migrate(pool: Pool): Promise<void> {
  const client = await pool.connect();
  const ignore = (): void => {};
  client.on('error', ignore);
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await client.query(schemaVersionTable);
    const applied = (await client.query<{ version: number }>('SELECT version FROM archive_schema_version')).rows;
    for (const m of pendingMigrations(applied.map((r) => r.version))) {
      await client.query(m.postgres);
      if (m.backfill === 'search') await backfillSearch(client);
      await client.query('INSERT INTO archive_schema_version (version, name, applied_at) VALUES ($1, $2, $3)', [
        m.version,
        m.name,
        new Date().toISOString(),
      ]);
    }
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    client.off('error', ignore);
    client.release(true);
  }
}

/** Replaces the search rows of the messages `rows` index, inside the caller's transaction. */
async function indexSearch(c: PoolClient, key: string, rows: readonly SearchRow[], keyIds = true): Promise<void> {
  if (rows.length === 0) return;
  await c.query('DELETE FROM archive_search WHERE workflow_id = $1 AND seq = ANY($2::bigint[])', [
    key,
    [...new Set(rows.map((r) => r.seq))],
  ]);
  // The backfill of version 2 runs before version 4 adds the key id column (and meets plain rows only).
  const keyColumn = keyIds ? ', key_id' : '';
  await c.query(
    `INSERT INTO archive_search (workflow_id, seq, part, hash, words, tsv${keyColumn})
     SELECT $1, u.seq, u.part, u.hash, u.words, strip(to_tsvector('simple', u.words))${keyIds ? ', u.key_id' : ''}
     FROM unnest($2::bigint[], $3::int[], $4::text[], $5::text[], $6::text[]) AS u(seq, part, hash, words, key_id)`,
    [
      key,
      rows.map((r) => r.seq),
      rows.map((r) => r.part),
      rows.map((r) => r.hash),
      rows.map((r) => r.words),
      rows.map((r) => r.keyId),
    ]
  );
}

/** Indexes every message already stored, a page at a time (inside the migration's transaction). */
async function backfillSearch(c: PoolClient): Promise<void> {
  let after: [string, string] = ['', '-1'];
  for (;;) {
    const page = await c.query<{ workflow_id: string; seq: string; hash: string; body: string }>(
      `SELECT workflow_id, seq, hash, body FROM archive_entries
       WHERE kind = 'message' AND (workflow_id, seq) > ($1, $2::bigint) ORDER BY workflow_id, seq LIMIT 500`,
      after
    );
    if (page.rows.length === 0) return;
    const byKey = new Map<string, { seq: number; hash: string; body: string }[]>();
    for (const r of page.rows)
      byKey.set(r.workflow_id, [
        ...(byKey.get(r.workflow_id) ?? []),
        { seq: Number(r.seq), hash: r.hash, body: r.body },
      ]);
    for (const [key, entries] of byKey) await indexSearch(c, key, searchRows(entries), false);
    const last = page.rows[page.rows.length - 1]!;
    after = [last.workflow_id, last.seq];
  }
}

/** @returns `url` with its password replaced by `***` (or the whole URL hidden when it does not parse). */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return url.includes('@') ? '(an unparsable URL, hidden: it may hold a password)' : JSON.stringify(url);
  }
}

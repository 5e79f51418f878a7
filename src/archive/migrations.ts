/**
 * The archive's database schema as numbered migrations, one SQL text per dialect. Each worker applies the missing ones
 * at start, in one transaction each, under a lock, and records them in `archive_schema_version`; a migration is never
 * edited once released (add a new one). A database newer than the worker stops it at start.
 *
 * Tables (both dialects):
 * - `archive_entries`: the current revision of every message (`kind = 'message'`, `seq` = sequence number) and fold
 *   record (`kind = 'fold'`, `seq` = fold number) of every workflow id; primary key `(workflow_id, kind, seq)`, so
 *   every read is by index.
 * - `archive_superseded`: older revisions, moved there in the same transaction that stores the newer one.
 * - `fold_summaries` (version 3): each fold's summary text by the digest of its summarizer request, which the fold
 *   record carries as `requestDigest`; `ordinal` keeps the order they were first stored in.
 * - `key_id` (version 4) on every table holding bodies or search words: the key a row is encrypted with
 *   (`archive.encrypt`, `cipher.ts`); NULL for a plaintext row, so rows written before encryption was on still read.
 */
import { searchIndexMigration } from './search-migration';

/** Version 4, the same in both dialects: a nullable key id beside every body and every row of search words. */
const encryptionKeyColumns = ['archive_entries', 'archive_superseded', 'fold_summaries', 'archive_search']
  .map((table) => `ALTER TABLE ${table} ADD COLUMN key_id TEXT;`)
  .join('\n');

/** One schema change. */
export interface Migration {
  version: number;
  name: string;
  sqlite: string;
  postgres: string;
  /** Rows the driver computes in code inside the migration's transaction: `search` indexes every stored message. */
  backfill?: 'search';
}

/** The column types of one dialect, so a table both dialects hold is written once. */
interface ColumnTypes {
  text: string;
  bigint: string;
  integer: string;
  /** An integer the database numbers itself on insert (PostgreSQL); SQLite's driver writes it. */
  serial: string;
  time: string;
  /** The default of a time the database fills on insert (PostgreSQL); SQLite's driver writes it. */
  now: string;
}

const sqliteTypes: ColumnTypes = {
  text: 'TEXT',
  bigint: 'INTEGER',
  integer: 'INTEGER',
  serial: 'INTEGER',
  time: 'TEXT',
  now: '',
};
const postgresTypes: ColumnTypes = {
  text: 'text',
  bigint: 'bigint',
  integer: 'integer',
  serial: 'bigserial',
  time: 'timestamptz',
  now: ' DEFAULT now()',
};

/** @returns the SQL of both dialects from one text over their column types. */
function bothDialects(sql: (t: ColumnTypes) => string): Pick<Migration, 'sqlite' | 'postgres'> {
  return { sqlite: sql(sqliteTypes), postgres: sql(postgresTypes) };
}

export const migrations: readonly Migration[] = [
  {
    version: 1,
    name: 'archive entries and superseded revisions',
    ...bothDialects(
      ({ text, bigint, integer, time, now }) => `
      CREATE TABLE archive_entries (
        workflow_id ${text} NOT NULL,
        kind ${text} NOT NULL CHECK (kind IN ('message', 'fold')),
        seq ${bigint} NOT NULL CHECK (seq >= 0),
        revision ${integer} NOT NULL CHECK (revision >= 0),
        hash ${text} NOT NULL,
        body ${text} NOT NULL,
        stored_at ${time} NOT NULL${now},
        PRIMARY KEY (workflow_id, kind, seq)
      );
      CREATE TABLE archive_superseded (
        workflow_id ${text} NOT NULL,
        kind ${text} NOT NULL,
        seq ${bigint} NOT NULL,
        revision ${integer} NOT NULL,
        hash ${text} NOT NULL,
        body ${text} NOT NULL,
        stored_at ${time} NOT NULL,
        superseded_at ${time} NOT NULL${now},
        PRIMARY KEY (workflow_id, kind, seq, revision)
      );`
    ),
  },
  searchIndexMigration,
  {
    version: 3,
    name: 'fold summaries by request digest',
    ...bothDialects(
      ({ text, serial, time, now }) => `
      CREATE TABLE fold_summaries (
        workflow_id ${text} NOT NULL,
        digest ${text} NOT NULL CHECK (length(digest) = 64),
        ordinal ${serial} NOT NULL,
        kind ${text} NOT NULL CHECK (kind IN ('text', 'items')),
        body ${text} NOT NULL,
        stored_at ${time} NOT NULL${now},
        PRIMARY KEY (workflow_id, digest)
      );`
    ),
  },
  {
    version: 4,
    name: 'key id of encrypted rows',
    sqlite: encryptionKeyColumns,
    postgres: encryptionKeyColumns,
  },
];

/** The newest schema version this code knows. */
export const latestSchemaVersion = migrations.reduce((max, m) => Math.max(max, m.version), 0);

/** The bookkeeping table, the same in both dialects. */
export const schemaVersionTable = `CREATE TABLE IF NOT EXISTS archive_schema_version (
  version INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  applied_at TEXT NOT NULL
)`;

/**
 * @returns the migrations a database at `applied` versions still needs, in order.
 * @throws Error naming both versions when the database is newer than this code.
 */
export function pendingMigrations(applied: readonly number[]): Migration[] {
  const newest = applied.reduce((max, v) => Math.max(max, v), 0);
  if (newest > latestSchemaVersion) {
    throw new Error(
      `the archive database has schema version ${newest}, newer than this worker knows (${latestSchemaVersion}): upgrade the worker`
    );
  }
  const done = new Set(applied);
  return migrations.filter((m) => !done.has(m.version)).sort((a, b) => a.version - b.version);
}

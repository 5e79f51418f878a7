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

export const migrations: readonly Migration[] = [
  {
    version: 1,
    name: 'archive entries and superseded revisions',
    sqlite: `
      CREATE TABLE archive_entries (
        workflow_id TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('message', 'fold')),
        seq INTEGER NOT NULL CHECK (seq >= 0),
        revision INTEGER NOT NULL CHECK (revision >= 0),
        hash TEXT NOT NULL,
        body TEXT NOT NULL,
        stored_at TEXT NOT NULL,
        PRIMARY KEY (workflow_id, kind, seq)
      );
      CREATE TABLE archive_superseded (
        workflow_id TEXT NOT NULL,
        kind TEXT NOT NULL,
        seq INTEGER NOT NULL,
        revision INTEGER NOT NULL,
        hash TEXT NOT NULL,
        body TEXT NOT NULL,
        stored_at TEXT NOT NULL,
        superseded_at TEXT NOT NULL,
        PRIMARY KEY (workflow_id, kind, seq, revision)
      );`,
    postgres: `
      CREATE TABLE archive_entries (
        workflow_id text NOT NULL,
        kind text NOT NULL CHECK (kind IN ('message', 'fold')),
        seq bigint NOT NULL CHECK (seq >= 0),
        revision integer NOT NULL CHECK (revision >= 0),
        hash text NOT NULL,
        body text NOT NULL,
        stored_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (workflow_id, kind, seq)
      );
      CREATE TABLE archive_superseded (
        workflow_id text NOT NULL,
        kind text NOT NULL,
        seq bigint NOT NULL,
        revision integer NOT NULL,
        hash text NOT NULL,
        body text NOT NULL,
        stored_at timestamptz NOT NULL,
        superseded_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (workflow_id, kind, seq, revision)
      );`,
  },
  searchIndexMigration,
  {
    version: 3,
    name: 'fold summaries by request digest',
    sqlite: `
      CREATE TABLE fold_summaries (
        workflow_id TEXT NOT NULL,
        digest TEXT NOT NULL CHECK (length(digest) = 64),
        ordinal INTEGER NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('text', 'items')),
        body TEXT NOT NULL,
        stored_at TEXT NOT NULL,
        PRIMARY KEY (workflow_id, digest)
      );`,
    postgres: `
      CREATE TABLE fold_summaries (
        workflow_id text NOT NULL,
        digest text NOT NULL CHECK (length(digest) = 64),
        ordinal bigserial NOT NULL,
        kind text NOT NULL CHECK (kind IN ('text', 'items')),
        body text NOT NULL,
        stored_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (workflow_id, digest)
      );`,
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

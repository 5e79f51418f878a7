/**
 * Migration 2: the recall search index. One row per part of each current message's searchable words
 * (`messageWords`, `search-index.ts`), kept in step with `archive_entries` by the drivers in the same transaction as
 * the message; existing messages are indexed inside the migration's own transaction (`backfill: 'search'`). SQLite
 * indexes the words with FTS5, PostgreSQL with a GIN index on a `simple` tsvector. It only adds tables, so it commutes
 * with any other migration. (Typed as a `Migration` where `migrations.ts` lists it.)
 */
export const searchIndexMigration = {
  version: 2,
  name: 'recall search index',
  backfill: 'search',
  sqlite: `
    CREATE TABLE archive_search (
      workflow_id TEXT NOT NULL,
      seq INTEGER NOT NULL,
      part INTEGER NOT NULL,
      hash TEXT NOT NULL,
      words TEXT NOT NULL,
      PRIMARY KEY (workflow_id, seq, part)
    );
    CREATE VIRTUAL TABLE archive_search_fts USING fts5(
      words, content = 'archive_search', content_rowid = 'rowid', tokenize = 'unicode61 remove_diacritics 0'
    );
    -- A deleted row's terms leave the index at once (a purged conversation leaves no word behind in the file).
    INSERT INTO archive_search_fts (archive_search_fts, rank) VALUES ('secure-delete', 1);
    CREATE TRIGGER archive_search_insert AFTER INSERT ON archive_search BEGIN
      INSERT INTO archive_search_fts (rowid, words) VALUES (new.rowid, new.words);
    END;
    CREATE TRIGGER archive_search_delete AFTER DELETE ON archive_search BEGIN
      INSERT INTO archive_search_fts (archive_search_fts, rowid, words) VALUES ('delete', old.rowid, old.words);
    END;`,
  postgres: `
    CREATE TABLE archive_search (
      workflow_id text NOT NULL,
      seq bigint NOT NULL,
      part integer NOT NULL,
      hash text NOT NULL,
      words text NOT NULL,
      tsv tsvector NOT NULL,
      PRIMARY KEY (workflow_id, seq, part)
    );
    CREATE INDEX archive_search_tsv ON archive_search USING gin (tsv);`,
} as const;

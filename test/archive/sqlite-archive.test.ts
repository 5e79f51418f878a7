import { strict as assert } from 'node:assert';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { ArchiveConfigError } from '../../src/archive/archive';
import { migrations, schemaVersionTable } from '../../src/archive/migrations';
import { SqliteArchive } from '../../src/archive/sqlite-archive';
import { searchWords } from '../../src/core/recall/search-words';
import { encryptedEnv, testCipher } from '../support/archive-keys';
import { describeArchiveConformance } from './conformance';
import { describeSearchConformance } from './search-conformance';

describeArchiveConformance('sqlite', () => {
  const path = join(mkdtempSync(join(tmpdir(), 'dc-sqlite-')), 'archive.sqlite');
  return {
    open: () => Promise.resolve(SqliteArchive.open({ path })),
    writerEnv: { ARCHIVE_DRIVER: 'sqlite', ARCHIVE_PATH: path },
  };
});

describeSearchConformance('sqlite', () => {
  const path = join(mkdtempSync(join(tmpdir(), 'dc-sqlite-')), 'archive.sqlite');
  return {
    open: () => Promise.resolve(SqliteArchive.open({ path })),
    dropIndex: () => {
      const db = new Database(path);
      db.exec(`DROP TABLE archive_search_fts; DROP TABLE archive_search;
        ALTER TABLE archive_entries DROP COLUMN key_id; ALTER TABLE archive_superseded DROP COLUMN key_id;
        ALTER TABLE fold_summaries DROP COLUMN key_id;
        DELETE FROM archive_schema_version WHERE version IN (2, 4)`);
      db.close();
      return Promise.resolve();
    },
  };
});

describeArchiveConformance('sqlite, encrypted', () => {
  const path = join(mkdtempSync(join(tmpdir(), 'dc-sqlite-')), 'archive.sqlite');
  const cipher = testCipher('k1');
  return {
    open: () => Promise.resolve(SqliteArchive.open({ path, cipher })),
    writerEnv: { ARCHIVE_DRIVER: 'sqlite', ARCHIVE_PATH: path, ...encryptedEnv('k1') },
  };
});

describeSearchConformance(
  'sqlite, encrypted',
  () => {
    const path = join(mkdtempSync(join(tmpdir(), 'dc-sqlite-')), 'archive.sqlite');
    return { open: () => Promise.resolve(SqliteArchive.open({ path, cipher: testCipher('k1') })) };
  },
  { backfill: false }
);

describe('SqliteArchive', () => {
  it('leaves no byte of a purged conversation in the database file or its journal', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'dc-sqlite-')), 'archive.sqlite');
    const archive = SqliteArchive.open({ path });
    const planted = `planted-${process.pid}-${Date.now()}-secret`;
    // Its searchable form (the search rows) and one word as the full-text index stores it (a term, lower case).
    const token = `zqxw${process.pid}vbnmkj`;
    const traces = [planted, searchWords(planted), token.slice(2)];
    const files = (): Buffer[] => [path, `${path}-wal`].filter(existsSync).map((f) => readFileSync(f));
    const found = (): string[] => traces.filter((t) => files().some((b) => b.includes(t)));
    try {
      await archive.append('conversation-kept', 0, ['a neighbour stays']);
      // Long enough to spill onto overflow pages, and a superseded revision too.
      await archive.append('conversation-gone', 0, [`${planted} `.repeat(2000), { role: 'user', content: planted }]);
      await archive.append('conversation-gone', 1, [{ role: 'user', content: `${planted} changed ${token}` }]);
      assert.deepEqual(found(), traces, 'the planted text, its search words and its index term are on disk before');
      await archive.purge('conversation-gone');
      assert.deepEqual(found(), [], 'no trace of the planted text after the purge');
      assert.equal((await archive.readAll('conversation-kept')).length, 1);
    } finally {
      await archive.close();
    }
    assert.ok(traces.every((t) => !readFileSync(path).includes(t)));
  });

  it('uses a WAL journal with full synchronous commits, and migrates once however often it opens', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'dc-sqlite-')), 'nested', 'archive.sqlite');
    const first = SqliteArchive.open({ path });
    const second = SqliteArchive.open({ path });
    await first.close();
    await second.close();
    const db = new Database(path, { readonly: true });
    try {
      assert.equal(db.pragma('journal_mode', { simple: true }), 'wal');
      assert.deepEqual(
        db.prepare('SELECT version FROM archive_schema_version ORDER BY version').all(),
        migrations.map((m) => ({ version: m.version }))
      );
    } finally {
      db.close();
    }
  });

  it('upgrades a database written before fold summaries, keeping what it holds', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'dc-sqlite-')), 'archive.sqlite');
    const old = new Database(path);
    old.exec(schemaVersionTable);
    old.exec(migrations[0]!.sqlite);
    old.prepare("INSERT INTO archive_schema_version VALUES (1, 'first', 'then')").run();
    old.close();
    const before = SqliteArchive.open({ path, readOnly: true });
    await assert.rejects(before.summaries('w'), /no such table: fold_summaries/);
    await before.close();
    const first = SqliteArchive.open({ path });
    await first.append('w', 0, ['kept']);
    await first.close();
    const archive = SqliteArchive.open({ path });
    try {
      await archive.recordSummary('w', { digest: 'e5'.repeat(32), kind: 'text', text: 'summary' });
      assert.deepEqual(
        (await archive.readAll('w')).map((m) => m.message),
        ['kept']
      );
      assert.deepEqual(
        (await archive.summaries('w')).map((s) => s.text),
        ['summary']
      );
    } finally {
      await archive.close();
    }
  });

  it('stops with a clear message for a path it cannot open or a schema newer than it knows', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dc-sqlite-'));
    const notAFolder = join(dir, 'file');
    writeFileSync(notAFolder, 'x');
    assert.throws(
      () => SqliteArchive.open({ path: join(notAFolder, 'archive.sqlite') }),
      (err: Error) => err instanceof ArchiveConfigError && /cannot open the SQLite archive at .*file/.test(err.message)
    );
    const garbage = join(dir, 'garbage.sqlite');
    writeFileSync(garbage, 'this is not a database, just text long enough to have a header'.repeat(10));
    assert.throws(() => SqliteArchive.open({ path: garbage }), /cannot open the SQLite archive.*not a database/);
    const newer = join(dir, 'newer.sqlite');
    SqliteArchive.open({ path: newer });
    const db = new Database(newer);
    db.prepare("INSERT INTO archive_schema_version VALUES (99, 'future', 'now')").run();
    db.close();
    assert.throws(() => SqliteArchive.open({ path: newer }), /schema version 99, newer than this worker knows/);
    if (process.getuid?.() !== 0) {
      const locked = join(dir, 'locked');
      mkdirSync(locked);
      chmodSync(locked, 0o500);
      assert.throws(() => SqliteArchive.open({ path: join(locked, 'a.sqlite') }), ArchiveConfigError);
    }
  });
});

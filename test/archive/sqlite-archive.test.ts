import { strict as assert } from 'node:assert';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { ArchiveConfigError } from '../../src/archive/archive';
import { latestSchemaVersion } from '../../src/archive/migrations';
import { SqliteArchive } from '../../src/archive/sqlite-archive';
import { describeArchiveConformance } from './conformance';

describeArchiveConformance('sqlite', () => {
  const path = join(mkdtempSync(join(tmpdir(), 'dc-sqlite-')), 'archive.sqlite');
  return {
    open: () => Promise.resolve(SqliteArchive.open({ path })),
    writerEnv: { ARCHIVE_DRIVER: 'sqlite', ARCHIVE_PATH: path },
  };
});

describe('SqliteArchive', () => {
  it('leaves no byte of a purged conversation in the database file or its journal', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'dc-sqlite-')), 'archive.sqlite');
    const archive = SqliteArchive.open({ path });
    const planted = `planted-${process.pid}-${Date.now()}-secret`;
    const files = (): Buffer[] => [path, `${path}-wal`].filter(existsSync).map((f) => readFileSync(f));
    try {
      await archive.append('conversation-kept', 0, ['a neighbour stays']);
      // Long enough to spill onto overflow pages, and a superseded revision too.
      await archive.append('conversation-gone', 0, [`${planted} `.repeat(2000), { role: 'user', content: planted }]);
      await archive.append('conversation-gone', 1, [{ role: 'user', content: `${planted} changed` }]);
      assert.ok(
        files().some((b) => b.includes(planted)),
        'the planted text is on disk before the purge'
      );
      await archive.purge('conversation-gone');
      assert.ok(!files().some((b) => b.includes(planted)), 'no trace of the planted text after the purge');
      assert.equal((await archive.readAll('conversation-kept')).length, 1);
    } finally {
      await archive.close();
    }
    assert.ok(!readFileSync(path).includes(planted));
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
      assert.deepEqual(db.prepare('SELECT version FROM archive_schema_version').all(), [
        { version: latestSchemaVersion },
      ]);
    } finally {
      db.close();
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

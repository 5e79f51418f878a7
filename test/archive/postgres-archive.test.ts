import { strict as assert } from 'node:assert';
import { Client } from 'pg';
import { ArchiveConfigError, ArchiveUnavailableError } from '../../src/archive/archive';
import { migrations } from '../../src/archive/migrations';
import { PostgresArchive, redactUrl } from '../../src/archive/postgres-archive';
import { freshDatabase, testDatabaseUrl } from '../support/postgres';
import { startProxy } from '../support/tcp-proxy';
import { encryptedEnv, testCipher } from '../support/archive-keys';
import { describeArchiveConformance } from './conformance';
import { describeSearchConformance } from './search-conformance';

describeArchiveConformance('postgres', async () => {
  const url = await freshDatabase('conformance');
  return { open: () => PostgresArchive.open({ url }), writerEnv: { ARCHIVE_DRIVER: 'postgres', DATABASE_URL: url } };
});

describeSearchConformance('postgres', async () => {
  const url = await freshDatabase('search');
  return {
    open: () => PostgresArchive.open({ url }),
    dropIndex: async () => {
      const client = new Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`DROP TABLE archive_search;
          ALTER TABLE archive_entries DROP COLUMN key_id; ALTER TABLE archive_superseded DROP COLUMN key_id;
          ALTER TABLE fold_summaries DROP COLUMN key_id;
          DELETE FROM archive_schema_version WHERE version IN (2, 4)`);
      } finally {
        await client.end();
      }
    },
  };
});

describeArchiveConformance('postgres, encrypted', async () => {
  const url = await freshDatabase('conformance_encrypted');
  const cipher = testCipher('k1');
  return {
    open: () => PostgresArchive.open({ url, cipher }),
    writerEnv: { ARCHIVE_DRIVER: 'postgres', DATABASE_URL: url, ...encryptedEnv('k1') },
  };
});

describeSearchConformance(
  'postgres, encrypted',
  async () => {
    const url = await freshDatabase('search_encrypted');
    return { open: () => PostgresArchive.open({ url, cipher: testCipher('k1') }) };
  },
  { backfill: false }
);

describe('PostgresArchive', function () {
  this.timeout(60_000);

  it('migrates a new database once, even when two workers start at the same moment', async () => {
    const url = await freshDatabase('migrate');
    const opened = await Promise.all([PostgresArchive.open({ url }), PostgresArchive.open({ url })]);
    await Promise.all(opened.map((a) => a.close()));
    await (await PostgresArchive.open({ url })).close();
    const client = new Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query('SELECT version FROM archive_schema_version ORDER BY version');
      assert.deepEqual(
        rows,
        migrations.map((m) => ({ version: m.version }))
      );
      await client.query("INSERT INTO archive_schema_version VALUES (99, 'future', 'now')");
    } finally {
      await client.end();
    }
    await assert.rejects(PostgresArchive.open({ url }), /schema version 99, newer than this worker knows/);
  });

  it('stops at open with one clear line for wrong credentials, a missing database, no server, or a bad URL', async () => {
    const good = new URL(testDatabaseUrl());
    const password = decodeURIComponent(good.password);
    const wrong = new URL(good.toString());
    wrong.password = 'not-the-password';
    const missing = new URL(good.toString());
    missing.pathname = '/no_such_database';
    const noServer = new URL(good.toString());
    noServer.port = '1';
    const cases: [string, string, RegExp][] = [
      ['wrong password', wrong.toString(), /password authentication failed for user "postgres"/],
      ['missing database', missing.toString(), /database "no_such_database" does not exist/],
      ['no server', noServer.toString(), /ECONNREFUSED/],
      ['not a URL', 'localhost:5432/db', /must start with postgres:\/\//],
      ['not parsable', 'postgres://user:secret@', /not a URL/],
    ];
    for (const [what, url, message] of cases) {
      await assert.rejects(PostgresArchive.open({ url, connectTimeoutMs: 2000 }), (err: Error) => {
        assert.ok(err instanceof ArchiveConfigError, what);
        assert.match(err.message, message, what);
        assert.ok(!err.message.includes('\n'), `${what}: one line`);
        assert.ok(!err.message.includes(password) && !err.message.includes('not-the-password'), `${what}: no password`);
        assert.ok(!err.message.includes('secret'), `${what}: no password`);
        return true;
      });
    }
    assert.equal(redactUrl('postgres://u:p4ss@h:5432/d'), 'postgres://u:***@h:5432/d');
  });

  it('leaves no row holding a purged conversation in either table', async () => {
    const url = await freshDatabase('purge');
    const archive = await PostgresArchive.open({ url });
    const planted = `planted-${process.pid}-${Date.now()}-secret`;
    const client = new Client({ connectionString: url });
    await client.connect();
    const holding = async (): Promise<number> => {
      const { rows } = await client.query<{ n: string }>(
        `SELECT (SELECT count(*) FROM archive_entries WHERE body LIKE $1 OR workflow_id = $2)
              + (SELECT count(*) FROM archive_superseded WHERE body LIKE $1 OR workflow_id = $2) AS n`,
        [`%${planted}%`, 'conversation-gone']
      );
      return Number(rows[0]!.n);
    };
    try {
      await archive.append('conversation-kept', 0, ['a neighbour stays']);
      await archive.append('conversation-gone', 0, [`${planted} `.repeat(2000), { role: 'user', content: planted }]);
      await archive.append('conversation-gone', 1, [{ role: 'user', content: `${planted} changed` }]);
      assert.equal(await holding(), 3);
      await archive.purge('conversation-gone');
      assert.equal(await holding(), 0);
      assert.equal((await archive.readAll('conversation-kept')).length, 1);
    } finally {
      await client.end();
      await archive.close();
    }
  });

  it('retries through a connection failure with back-off, and reports the database unavailable when it stays down', async () => {
    const proxy = await startProxy(new URL(await freshDatabase('outage')));
    const archive = await PostgresArchive.open({
      url: proxy.url,
      retry: { attempts: 8, initialDelayMs: 100, maxDelayMs: 1000 },
    });
    try {
      await archive.append('conversation-outage', 0, ['before']);
      proxy.cut();
      setTimeout(() => proxy.restore(), 1500);
      // Issued while the database is unreachable; succeeds once it is back.
      const outcome = await archive.append('conversation-outage', 1, ['during']);
      assert.deepEqual(outcome, { stored: 1, unchanged: 0, superseded: [] });
      assert.deepEqual(
        (await archive.readAll('conversation-outage')).map((m) => m.message),
        ['before', 'during']
      );
      proxy.cut();
      await assert.rejects(archive.append('conversation-outage', 2, ['lost?']), (err: Error) => {
        assert.ok(err instanceof ArchiveUnavailableError);
        assert.match(err.message, /unreachable after 8 attempts/);
        return true;
      });
      proxy.restore();
      // Nothing half-written: the retry of the failed call stores it once.
      await archive.append('conversation-outage', 2, ['lost?']);
      assert.equal((await archive.summary('conversation-outage')).messages, 3);
    } finally {
      await archive.close();
      await proxy.close();
    }
  });
});

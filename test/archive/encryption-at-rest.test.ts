/**
 * Encryption at rest on both drivers, looked at from below: the database file's bytes (SQLite, with its journal) and
 * the raw columns (PostgreSQL) hold no message text, summary text, search word or content hash; a body moved to
 * another row does not decrypt; keys rotate by id; rows written before encryption was turned on still read.
 */
import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Client as PgClient } from 'pg';
import type { ConversationArchive } from '../../src/archive/archive';
import { ArchiveDecryptError, type ArchiveCipher } from '../../src/archive/cipher';
import { contentHash } from '../../src/archive/entries';
import { PostgresArchive } from '../../src/archive/postgres-archive';
import { SqliteArchive } from '../../src/archive/sqlite-archive';
import { canonicalJson } from '../../src/core/hash';
import { keyList, testCipher } from '../support/archive-keys';
import { freshDatabase } from '../support/postgres';
import { foldRecord } from '../support/fold-records';

/** One database of a driver: open it (with or without a cipher), look at it at rest, change rows under it. */
interface Rig {
  open(cipher?: ArchiveCipher): Promise<ConversationArchive>;
  /** Whether any stored byte (file) or column (rows) holds `text`. */
  holds(text: string): Promise<boolean>;
  /** Runs SQL with `?` placeholders on the raw database. */
  sql(text: string, params?: unknown[]): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
}

function sqliteRig(): Rig {
  const path = join(mkdtempSync(join(tmpdir(), 'dc-at-rest-')), 'archive.sqlite');
  return {
    open: (cipher) => Promise.resolve(SqliteArchive.open({ path, cipher })),
    holds: (text) =>
      Promise.resolve([path, `${path}-wal`].some((f) => existsSync(f) && readFileSync(f).includes(text))),
    sql: (text, params = []) => {
      const db = new Database(path);
      try {
        const statement = db.prepare(text);
        return Promise.resolve(
          statement.reader ? (statement.all(...params) as Record<string, unknown>[]) : (statement.run(...params), [])
        );
      } finally {
        db.close();
      }
    },
    close: () => Promise.resolve(),
  };
}

async function postgresRig(): Promise<Rig> {
  const url = await freshDatabase('at_rest');
  const pg = new PgClient({ connectionString: url });
  await pg.connect();
  const sql = async (text: string, params: unknown[] = []): Promise<Record<string, unknown>[]> => {
    let n = 0;
    return (
      await pg.query(
        text.replace(/\?/g, () => `$${++n}`),
        params
      )
    ).rows as Record<string, unknown>[];
  };
  return {
    open: (cipher) => PostgresArchive.open({ url, cipher }),
    holds: async (text) => {
      const rows = await sql(
        `SELECT t FROM (
           SELECT body || ' ' || hash AS t FROM archive_entries UNION ALL SELECT body || ' ' || hash FROM archive_superseded
           UNION ALL SELECT body FROM fold_summaries UNION ALL SELECT words || ' ' || hash || ' ' || tsv::text FROM archive_search
         ) x WHERE strpos(t, ?) > 0`,
        [text]
      );
      return rows.length > 0;
    },
    sql,
    close: () => pg.end(),
  };
}

const rigs: [string, () => Rig | Promise<Rig>][] = [
  ['sqlite', sqliteRig],
  ['postgres', postgresRig],
];

const all = (terms: string[]) => ({ terms, firstSeq: 0, lastSeq: Number.MAX_SAFE_INTEGER, limit: 100 });
const word = (label: string): string => `${label}${randomBytes(5).toString('hex')}`;

for (const [name, makeRig] of rigs) {
  describe(`encryption at rest (${name} archive)`, function () {
    this.timeout(60_000);
    let rig: Rig;
    beforeEach(async () => {
      rig = await makeRig();
    });
    afterEach(() => rig.close());

    it('holds no message text, summary text, search word or content hash at rest; reads them back whole', async () => {
      const [secret, later, summaryWord, ticket] = [word('secret'), word('later'), word('summary'), word('tck')];
      const messages = [
        { role: 'user', content: `the password is ${secret}, ticket ${ticket}` },
        { role: 'assistant', content: `noted ${secret}` },
      ];
      const summary = { digest: 'd4'.repeat(32), kind: 'text' as const, text: `Summary: ${summaryWord}` };
      // What would show where: the words, their search form, a middle slice (FTS5 stores terms prefix-compressed),
      // and the SHA-256 of each message's content (guessable for short messages, so not stored either).
      const traces = [secret, later, summaryWord, ticket, secret.slice(3), summaryWord.slice(3)];
      const hashes = messages.map((m) => contentHash(canonicalJson(m)));

      for (const encrypted of [false, true]) {
        const key = `conversation-${encrypted ? 'sealed' : 'plain'}`;
        const archive = await rig.open(encrypted ? testCipher('k1') : undefined);
        try {
          await archive.append(key, 0, messages);
          await archive.append(key, 1, [{ role: 'assistant', content: `noted ${later}` }]);
          await archive.recordSummary(key, summary);
          await archive.recordFold(key, foldRecord(1));
          assert.deepEqual(await archive.search(key, all([ticket])), [0]);
          assert.deepEqual(await archive.search(key, all([later])), [1]);
          assert.deepEqual(await archive.search(key, all([secret])), [0], 'the superseded revision is not searched');
          const noted = { role: 'assistant', content: `noted ${later}` };
          assert.deepEqual(
            (await archive.readAll(key)).map((m) => [m.message, m.hash]),
            [
              [messages[0], hashes[0]],
              [noted, contentHash(canonicalJson(noted))],
            ],
            'the API returns the SHA-256 content hash either way'
          );
          assert.deepEqual(
            (await archive.superseded(key)).map((r) => [r.value, r.hash]),
            [[messages[1], hashes[1]]]
          );
          assert.equal((await archive.summaries(key))[0]!.text, summary.text);
          assert.deepEqual(await archive.folds(key), [foldRecord(1)]);
        } finally {
          await archive.close();
        }
        const found: string[] = [];
        for (const t of [...traces, ...hashes]) if (await rig.holds(t)) found.push(t);
        if (encrypted) assert.deepEqual(found, [], 'nothing readable at rest');
        else assert.deepEqual(found, [...traces, ...hashes], 'control: a plain archive holds every trace');
        // The control's rows go, so the encrypted round looks at its own rows only.
        if (!encrypted) {
          const cleaner = await rig.open();
          await cleaner.purge(key);
          await cleaner.close();
        }
      }
      const keyIds = await rig.sql('SELECT DISTINCT key_id FROM archive_entries');
      assert.deepEqual(
        keyIds.map((r) => r.key_id),
        ['k1']
      );
    });

    it('refuses a body moved to another row, conversation or summary, naming the row and its key', async () => {
      const archive = await rig.open(testCipher('k1'));
      try {
        await archive.append('conversation-a', 0, ['first', 'second']);
        await archive.append('conversation-b', 0, ['other']);
        await archive.recordSummary('conversation-a', { digest: 'a1'.repeat(32), kind: 'text', text: 'one' });
        await archive.recordSummary('conversation-a', { digest: 'b2'.repeat(32), kind: 'text', text: 'two' });
        const moved = /does not authenticate: altered, or written for another row/;
        await rig.sql(
          `UPDATE archive_entries SET body = (SELECT body FROM archive_entries WHERE workflow_id = 'conversation-a' AND seq = 0)
           WHERE workflow_id = 'conversation-a' AND seq = 1`
        );
        assert.deepEqual(
          (await archive.read('conversation-a', [0])).map((m) => m.message),
          ['first']
        );
        await assert.rejects(archive.read('conversation-a', [1]), (err: Error) => {
          assert.ok(err instanceof ArchiveDecryptError);
          assert.match(err.message, moved);
          assert.match(err.message, /message 1 revision 0 of "conversation-a" \(key 'k1'\)/);
          return true;
        });
        await rig.sql(
          `UPDATE archive_entries SET body = (SELECT body FROM archive_entries WHERE workflow_id = 'conversation-a' AND seq = 0)
           WHERE workflow_id = 'conversation-b' AND seq = 0`
        );
        await assert.rejects(archive.readAll('conversation-b'), moved);
        await rig.sql(
          `UPDATE fold_summaries SET body = (SELECT body FROM fold_summaries WHERE digest = ?) WHERE digest = ?`,
          ['a1'.repeat(32), 'b2'.repeat(32)]
        );
        await assert.rejects(archive.summaries('conversation-a'), moved);
        // A revision number changed under a body fails too: the revision is part of the row's identity.
        await rig.sql(`UPDATE archive_entries SET revision = 1 WHERE workflow_id = 'conversation-a' AND seq = 0`);
        await assert.rejects(archive.read('conversation-a', [0]), moved);
      } finally {
        await archive.close();
      }
    });

    it('rotates keys by id: both read, new rows take the new key, a removed key fails naming it', async () => {
      const key = 'conversation-rotated';
      const [old, fresh] = [word('old'), word('fresh')];
      const first = await rig.open(testCipher('k1'));
      await first.append(key, 0, [`written with ${old}`, 'second']);
      await first.recordSummary(key, { digest: 'c3'.repeat(32), kind: 'text', text: `summary ${old}` });
      await first.close();

      const both = await rig.open(testCipher('k2', 'k1'));
      try {
        await both.append(key, 2, [`written with ${fresh}`]);
        // A retry of everything (each number in the form its own row holds its hash) changes nothing.
        assert.deepEqual(await both.append(key, 0, [`written with ${old}`, 'second', `written with ${fresh}`]), {
          stored: 0,
          unchanged: 3,
          superseded: [],
        });
        assert.deepEqual(
          (await both.readAll(key)).map((m) => m.message),
          [`written with ${old}`, 'second', `written with ${fresh}`]
        );
        assert.deepEqual(await both.search(key, all([old])), [0], 'the old key’s tokens are searched too');
        assert.deepEqual(await both.search(key, all([fresh])), [2]);
        assert.equal((await both.summaries(key))[0]!.text, `summary ${old}`);
      } finally {
        await both.close();
      }
      const ids = await rig.sql('SELECT seq, key_id FROM archive_entries ORDER BY seq');
      assert.deepEqual(
        ids.map((r) => [Number(r.seq), r.key_id]),
        [
          [0, 'k1'],
          [1, 'k1'],
          [2, 'k2'],
        ]
      );

      const onlyNew = await rig.open(testCipher('k2'));
      try {
        assert.deepEqual(
          (await onlyNew.read(key, [2])).map((m) => m.message),
          [`written with ${fresh}`]
        );
        await assert.rejects(onlyNew.read(key, [0]), (err: Error) => {
          assert.ok(err instanceof ArchiveDecryptError);
          assert.match(
            err.message,
            /message 0 revision 0 of "conversation-rotated" is encrypted with key 'k1', which is not configured \(keys: k2\)/
          );
          for (const k of keyList('k1', 'k2').split(',')) assert.ok(!err.message.includes(k.split(':')[1]!));
          return true;
        });
        await assert.rejects(onlyNew.summaries(key), /key 'k1', which is not configured/);
        assert.equal((await onlyNew.purge(key)).messages, 3, 'a purge needs no key');
      } finally {
        await onlyNew.close();
      }
    });

    it('reads, searches and keeps rows written before encryption was turned on; new writes are encrypted', async () => {
      const key = 'conversation-upgraded';
      const [before, after] = [word('before'), word('after')];
      const plain = await rig.open();
      await plain.append(key, 0, [`plain ${before}`]);
      await plain.recordSummary(key, { digest: 'e5'.repeat(32), kind: 'text', text: `plain summary ${before}` });
      await plain.close();

      const sealed = await rig.open(testCipher('k1'));
      try {
        assert.deepEqual(await sealed.append(key, 0, [`plain ${before}`]), { stored: 0, unchanged: 1, superseded: [] });
        assert.deepEqual(await sealed.search(key, all([before])), [0]);
        await sealed.append(key, 1, [`sealed ${after}`]);
        assert.deepEqual(await sealed.search(key, all([after])), [1]);
        assert.equal((await sealed.summaries(key))[0]!.text, `plain summary ${before}`);
        // New content for the old number: the new revision is encrypted, the plain one is kept as it was.
        await sealed.append(key, 0, [`changed ${after}`]);
        assert.deepEqual(
          (await sealed.readAll(key)).map((m) => m.message),
          [`changed ${after}`, `sealed ${after}`]
        );
        assert.deepEqual(
          (await sealed.superseded(key)).map((r) => r.value),
          [`plain ${before}`]
        );
      } finally {
        await sealed.close();
      }
      assert.ok(!(await rig.holds(after)), 'nothing written after enabling is plain');
      const ids = await rig.sql('SELECT seq, key_id FROM archive_entries ORDER BY seq');
      assert.deepEqual(
        ids.map((r) => r.key_id),
        ['k1', 'k1']
      );

      // An archive opened without encryption reads plain rows and says why it cannot read the others.
      const unkeyed = await rig.open();
      try {
        assert.deepEqual(
          (await unkeyed.superseded(key)).map((r) => r.value),
          [`plain ${before}`]
        );
        await assert.rejects(
          unkeyed.read(key, [1]),
          /message 1 revision 0 of "conversation-upgraded" is encrypted with key 'k1', but the archive is opened without encryption: set archive\.encrypt/
        );
      } finally {
        await unkeyed.close();
      }
    });
  });
}

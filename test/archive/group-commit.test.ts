import { strict as assert } from 'node:assert';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { ArchiveGapError } from '../../src/archive/archive';
import { SqliteArchive } from '../../src/archive/sqlite-archive';

const fresh = (): { path: string; archive: SqliteArchive } => {
  const path = join(mkdtempSync(join(tmpdir(), 'dc-group-')), 'archive.sqlite');
  return { path, archive: SqliteArchive.open({ path }) };
};

describe('SQLite group commit', () => {
  it('writes of one event-loop turn share one transaction, and each is stored once it resolves', async () => {
    const { archive } = fresh();
    try {
      const outcomes = await Promise.all(
        Array.from({ length: 5 }, (_, i) => archive.append(`conv-${i}`, 0, [`first of ${i}`, `second of ${i}`]))
      );
      assert.deepEqual(
        outcomes.map((o) => o.stored),
        [2, 2, 2, 2, 2]
      );
      assert.deepEqual(archive.commits.stats, { writes: 5, batches: 1 });
      for (let i = 0; i < 5; i++) {
        assert.deepEqual(
          (await archive.read(`conv-${i}`, [0, 1])).map((m) => m.message),
          [`first of ${i}`, `second of ${i}`]
        );
      }
      // A write of a later turn takes a transaction of its own.
      await archive.append('conv-0', 2, ['third']);
      assert.deepEqual(archive.commits.stats, { writes: 6, batches: 2 });
    } finally {
      await archive.close();
    }
  });

  it('a refused write rolls back alone: the others of its batch are stored', async () => {
    const { archive } = fresh();
    try {
      const [ok, gap, same] = await Promise.allSettled([
        archive.append('a', 0, ['a0', 'a1']),
        archive.append('b', 5, ['b5']), // b has no message 0-4: a gap
        archive.append('a', 2, ['a2']), // after the first write of the batch
      ]);
      assert.equal(ok.status, 'fulfilled');
      assert.equal(same.status, 'fulfilled');
      assert.ok(gap.status === 'rejected' && gap.reason instanceof ArchiveGapError, 'the gap is refused');
      assert.deepEqual(archive.commits.stats, { writes: 3, batches: 1 });
      assert.deepEqual(
        (await archive.read('a', [0, 1, 2])).map((m) => m.message),
        ['a0', 'a1', 'a2']
      );
      await assert.rejects(archive.read('b', [5]), /has no message with seq 5/);
    } finally {
      await archive.close();
    }
  });

  it('writes queued when the archive closes are committed first', async () => {
    const { path, archive } = fresh();
    const queued = archive.append('late', 0, ['written before the close']);
    await archive.close();
    assert.equal((await queued).stored, 1);
    const db = new Database(path, { readonly: true });
    try {
      const row = db.prepare("SELECT count(*) AS n FROM archive_entries WHERE workflow_id = 'late'").get() as {
        n: number;
      };
      assert.equal(row.n, 1);
    } finally {
      db.close();
    }
  });
});

import { strict as assert } from 'node:assert';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { recallFromArchive } from '../../src/archive/recall';
import { SqliteArchive } from '../../src/archive/sqlite-archive';
import { RecallQueryError } from '../../src/core/recall/query';

const KEY = 'conversation-recall';
const messages = Array.from({ length: 40 }, (_, i) => ({
  role: i % 2 ? 'assistant' : 'user',
  content: i === 7 ? `deploy note ${'x'.repeat(3000)}` : `step ${i}: deploy ${i % 5 === 0 ? 'TCK-4821' : 'other'}`,
}));

describe('recall from the archive', () => {
  let path: string;
  before(async () => {
    path = join(mkdtempSync(join(tmpdir(), 'dc-recall-')), 'archive.sqlite');
    const writer = SqliteArchive.open({ path });
    await writer.append(KEY, 0, messages);
    await writer.close();
  });
  // The client's reader: the worker's file opened read-only.
  const reader = (): SqliteArchive => SqliteArchive.open({ path, readOnly: true });

  it('returns the numbered messages first, then the search matches, each with its number, through a read-only archive', async () => {
    const archive = reader();
    try {
      const r = await recallFromArchive(archive, KEY, '#3 #1 TCK-4821');
      assert.deepEqual(
        r.matches.map((m) => m.seq),
        [3, 1, 0, 5, 10, 15, 20, 25, 30, 35]
      );
      for (const m of r.matches) assert.deepEqual(m.message, messages[m.seq]);
      assert.deepEqual(r.omitted, []);
      assert.equal(r.truncated, false);
      assert.deepEqual(
        (await recallFromArchive(archive, KEY, '#38-#45')).matches.map((m) => m.seq),
        [38, 39]
      );
      assert.deepEqual((await recallFromArchive(archive, KEY, '#100')).matches, []);
    } finally {
      await archive.close();
    }
  });

  it('keeps to maxMatches and maxBytes, saying what it left out', async () => {
    const archive = reader();
    try {
      const counted = await recallFromArchive(archive, KEY, 'deploy', { maxMatches: 5 });
      assert.deepEqual(
        counted.matches.map((m) => m.seq),
        [0, 1, 2, 3, 4]
      );
      assert.equal(counted.truncated, true);
      const sized = await recallFromArchive(archive, KEY, '#5-#9', { maxBytes: 1024 });
      assert.deepEqual(
        sized.matches.map((m) => m.seq),
        [5, 6, 8, 9]
      );
      assert.deepEqual(sized.omitted, [7], 'the 3 KB message does not fit 1 KiB');
      assert.equal(sized.truncated, true);
      assert.ok(Buffer.byteLength(JSON.stringify(sized.matches)) <= 1024);
      const alone = await recallFromArchive(archive, KEY, '#7', { maxBytes: 8192 });
      assert.deepEqual(alone.matches, [{ seq: 7, message: messages[7] }]);
    } finally {
      await archive.close();
    }
  });

  it('refuses bad limits and queries with RecallQueryError', async () => {
    const archive = reader();
    try {
      for (const [query, options] of [
        ['#1', { maxMatches: 0 }],
        ['#1', { maxBytes: 10 }],
        ['#1', { maxMatches: 1.5 }],
        ['', {}],
      ] as const)
        await assert.rejects(recallFromArchive(archive, KEY, query, options), RecallQueryError);
    } finally {
      await archive.close();
    }
  });
});

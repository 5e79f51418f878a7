import { strict as assert } from 'node:assert';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ArchivedMessage } from '../../src/archive/archive';
import { SqliteArchive } from '../../src/archive/sqlite-archive';
import { OriginalsReader } from '../../src/client/originals';
import { archiveWhere, lightenMessage } from '../../src/core/fold/lighten';
import { referenceStub } from '../../src/core/fold/reference-stub';

const picture = (i: number) => ({
  role: 'user',
  content: [{ type: 'input_image', image_url: `data:image/png;base64,${String(i).repeat(100_000)}` }],
});

/** A reader over `archive` that notes every range it reads. */
function counting(archive: SqliteArchive) {
  const reads: number[][] = [];
  const reader = {
    readRange: (k: string, first: number, last: number): Promise<ArchivedMessage[]> => {
      reads.push([first, last]);
      return archive.readRange(k, first, last);
    },
  };
  return { reads, reader };
}

describe('OriginalsReader (client re-materialisation of lightened messages)', () => {
  it('puts archived originals back, reading each once, and keeps look-alikes and other messages as they are', async () => {
    const archive = SqliteArchive.open({ path: join(mkdtempSync(join(tmpdir(), 'dc-orig-')), 'archive.sqlite') });
    try {
      const key = 'conversation-pics';
      const sent = [picture(0), { role: 'assistant', content: 'a cat' }, picture(1), picture(2)];
      await archive.append(key, 0, sent);
      const { reads, reader } = counting(archive);
      const originals = new OriginalsReader(reader, key, 'pics');
      // Text quoting notes: one names a stored message, one a number that does not exist (absent, not an error).
      const quoting = {
        role: 'user',
        content: `the original is ${archiveWhere('pics', 3)} or the full message is ${archiveWhere('pics', 99)}`,
      };
      const live = [
        lightenMessage(sent[0], archiveWhere('pics', 0)),
        sent[1],
        lightenMessage(sent[2], archiveWhere('pics', 2)),
        sent[3],
        quoting,
      ];
      assert.deepEqual(await originals.restore(live), [...sent, quoting]);
      // One read per run of consecutive numbers.
      assert.deepEqual(
        [...reads].sort((a, b) => a[0]! - b[0]!),
        [
          [0, 0],
          [2, 3],
          [99, 99],
        ]
      );
      // The next context: the originals already read are not read again.
      assert.deepEqual(await originals.restore(live.slice(0, 3)), sent.slice(0, 3));
      assert.equal(reads.length, 3);
    } finally {
      await archive.close();
    }
  });

  it('puts back the originals of messages held by reference, lightened first or not, in one read per run', async () => {
    const archive = SqliteArchive.open({ path: join(mkdtempSync(join(tmpdir(), 'dc-orig-')), 'archive.sqlite') });
    try {
      const key = 'conversation-refs';
      const prose = (i: number) => ({ role: i % 2 ? 'assistant' : 'user', content: `message ${i} `.repeat(40) });
      const sent = [prose(0), prose(1), picture(2), prose(3), { role: 'user', content: 'short' }];
      await archive.append(key, 0, sent);
      const { reads, reader } = counting(archive);
      const where = (seq: number) => archiveWhere('refs', seq);
      const live = [
        referenceStub(sent[0], where(0)),
        referenceStub(sent[1], where(1)),
        // Lightened by the byte budget first, then held by reference.
        referenceStub(lightenMessage(sent[2], where(2)), where(2)),
        referenceStub(sent[3], where(3)),
        sent[4],
      ];
      assert.ok(JSON.stringify(live).length < JSON.stringify(sent).length / 10, 'stubs are small');
      assert.deepEqual(await new OriginalsReader(reader, key, 'refs').restore(live), sent);
      assert.deepEqual(reads, [[0, 3]]);
      // A stub of something else than the archived message at its number is kept as it is.
      const other = referenceStub({ role: 'user', content: 'not what was archived '.repeat(10) }, where(0));
      assert.deepEqual(await new OriginalsReader(reader, key, 'refs').restore([other]), [other]);
    } finally {
      await archive.close();
    }
  });
});

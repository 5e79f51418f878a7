import { strict as assert } from 'node:assert';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ArchivedMessage } from '../../src/archive/archive';
import { SqliteArchive } from '../../src/archive/sqlite-archive';
import { OriginalsReader } from '../../src/client/originals';
import { archiveWhere, lightenMessage } from '../../src/core/fold/lighten';

const picture = (i: number) => ({
  role: 'user',
  content: [{ type: 'input_image', image_url: `data:image/png;base64,${String(i).repeat(100_000)}` }],
});

describe('OriginalsReader (client re-materialisation of lightened messages)', () => {
  it('puts archived originals back, reading each once, and keeps look-alikes and other messages as they are', async () => {
    const archive = SqliteArchive.open({ path: join(mkdtempSync(join(tmpdir(), 'dc-orig-')), 'archive.sqlite') });
    try {
      const key = 'conversation-pics';
      const sent = [picture(0), { role: 'assistant', content: 'a cat' }, picture(1), picture(2)];
      await archive.append(key, 0, sent);
      const reads: number[][] = [];
      const reader = {
        readRange: (k: string, first: number, last: number): Promise<ArchivedMessage[]> => {
          reads.push([first, last]);
          return archive.readRange(k, first, last);
        },
      };
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
      assert.deepEqual(
        reads.map(([first]) => first),
        [0, 2, 3, 99]
      );
      assert.ok(reads.every(([first, last]) => first === last));
      // The next context: the originals already read are not read again.
      assert.deepEqual(await originals.restore(live.slice(0, 3)), sent.slice(0, 3));
      assert.equal(reads.length, 4);
    } finally {
      await archive.close();
    }
  });
});

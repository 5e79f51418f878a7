/**
 * The recall search conformance suite: both drivers must find the same messages for the same terms, from messages
 * written in every format, across supersession, long messages and a database indexed after the fact.
 */
import { strict as assert } from 'node:assert';
import { ArchiveInputError, type ConversationArchive } from '../../src/archive/archive';
import { SEARCH_PART_CHARS } from '../../src/archive/search-index';

/** One driver under test: a fresh archive, and a way to drop its search index back to the schema before it. */
export interface SearchDriver {
  open(): Promise<ConversationArchive>;
  /**
   * Drops the index tables and what came after them (the key id columns) and forgets those migrations, as a database
   * written by the version before the index would be. Absent for an encrypted archive: such a database never holds
   * encrypted rows (encryption came later), so there is nothing of them to index after the fact.
   */
  dropIndex?(): Promise<void>;
}

let keys = 0;
const freshKey = (label: string): string => `conversation-search-${label}-${process.pid}-${++keys}`;
const all = (terms: string[], limit = 100) => ({ terms, firstSeq: 0, lastSeq: Number.MAX_SAFE_INTEGER, limit });

/** Messages in several formats; the comments say which terms each holds. */
const messages: unknown[] = [
  { role: 'user', content: 'The ticket is TCK-4821, please link it.' }, // 0: tck 4821
  {
    role: 'assistant',
    content: null,
    tool_calls: [
      { id: 'c1', type: 'function', function: { name: 'read', arguments: '{"path":"/srv/app/config.yaml"}' } },
    ],
  }, // 1: srv app config yaml
  { role: 'tool', tool_call_id: 'c1', content: 'port: 8443\nowner: TCK-48210' }, // 2: not tck 4821 (48210)
  { role: 'user', content: [{ type: 'text', text: 'Commit 5f2c9e1 broke the retry backoff.' }] }, // 3: 5f2c9e1
  { role: 'model', parts: [{ functionCall: { name: 'lookup', args: { order: 'ORD-20240611-88213' } } }] }, // 4
  { role: 'user', content: [{ type: 'image_url', image_url: { url: `data:image/png;base64,${'QUJD'.repeat(200)}` } }] }, // 5
  { role: 'assistant', content: 'config yaml srv app' }, // 6: the words, not in a row
];

export function describeSearchConformance(
  name: string,
  driver: () => SearchDriver | Promise<SearchDriver>,
  options: { backfill: boolean } = { backfill: true }
): void {
  describe(`archive search conformance: ${name}`, function () {
    this.timeout(60_000);
    let d: SearchDriver;
    let archive: ConversationArchive;
    before(async () => {
      d = await driver();
      archive = await d.open();
    });
    after(() => archive?.close());

    it('finds identifiers wherever a message holds them, as whole words in a row, and nothing else', async () => {
      const key = freshKey('ids');
      const other = freshKey('other');
      await archive.append(key, 0, messages);
      await archive.append(other, 0, [messages[0]]);
      assert.deepEqual(await archive.search(key, all(['tck 4821'])), [0]);
      assert.deepEqual(await archive.search(key, all(['srv app config yaml'])), [1]);
      assert.deepEqual(await archive.search(key, all(['config yaml'])), [1, 6]);
      assert.deepEqual(await archive.search(key, all(['5f2c9e1'])), [3]);
      assert.deepEqual(await archive.search(key, all(['ord 20240611 88213'])), [4]);
      assert.deepEqual(await archive.search(key, all(['tck 48210'])), [2]);
      assert.deepEqual(await archive.search(key, all(['quj'])), [], 'base64 of an image is not searchable text');
      assert.deepEqual(await archive.search(key, all(['4821', 'ticket'])), [0], 'every term');
      assert.deepEqual(await archive.search(key, all(['4821', 'backoff'])), []);
    });

    it('keeps to the range and the limit, lowest numbers first', async () => {
      const key = freshKey('range');
      await archive.append(
        key,
        0,
        Array.from({ length: 30 }, (_, i) => ({ role: 'user', content: `step ${i} of deploy` }))
      );
      assert.deepEqual(await archive.search(key, all(['deploy'], 5)), [0, 1, 2, 3, 4]);
      assert.deepEqual(
        await archive.search(key, { terms: ['deploy'], firstSeq: 10, lastSeq: 12, limit: 100 }),
        [10, 11, 12]
      );
      assert.deepEqual(await archive.search(key, all(['step 17'])), [17]);
    });

    it('searches the current revision only once a message is superseded', async () => {
      const key = freshKey('revision');
      await archive.append(key, 0, [{ role: 'user', content: 'use bucket alpha-one' }]);
      await archive.append(key, 0, [{ role: 'user', content: 'use bucket beta-two' }]);
      assert.deepEqual(await archive.search(key, all(['alpha one'])), []);
      assert.deepEqual(await archive.search(key, all(['beta two'])), [0]);
    });

    it('finds words at the end of a long message and across the boundary of its index parts', async () => {
      const key = freshKey('long');
      const filler = 'lorem ipsum dolor '.repeat(Math.ceil((SEARCH_PART_CHARS * 2.5) / 18));
      const cut = SEARCH_PART_CHARS - 6;
      const text = `${filler.slice(0, cut)} BOUNDARY-PHRASE-ACROSS-PARTS ${filler.slice(cut)} LAST-ID-991`;
      await archive.append(key, 0, [{ role: 'tool', tool_call_id: 'x', content: text }]);
      assert.deepEqual(await archive.search(key, all(['boundary phrase across parts'])), [0]);
      assert.deepEqual(await archive.search(key, all(['last id 991'])), [0]);
    });

    it('refuses a malformed request before any SQL runs', async () => {
      const key = freshKey('bad');
      const bad = [
        all([]),
        all(['Upper Case']),
        all(['two  spaces']),
        all(['x'], 0),
        { ...all(['x']), firstSeq: -1 },
        all(Array.from({ length: 17 }, (_, i) => `t${i}`)),
      ];
      for (const request of bad)
        await assert.rejects(archive.search(key, request), ArchiveInputError, JSON.stringify(request));
    });

    if (!options.backfill) return;
    it('indexes the messages a database already holds when the index is added', async () => {
      const key = freshKey('backfill');
      await archive.append(key, 0, messages);
      await archive.close();
      await d.dropIndex!();
      archive = await d.open();
      assert.deepEqual(await archive.search(key, all(['tck 4821'])), [0]);
      assert.deepEqual(await archive.search(key, all(['5f2c9e1'])), [3]);
    });
  });
}

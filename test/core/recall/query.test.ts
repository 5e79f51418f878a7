import { strict as assert } from 'node:assert';
import { parseRecallQuery, RecallQueryError } from '../../../src/core/recall/query';
import { messageWords, searchWords } from '../../../src/core/recall/search-words';

describe('recall query', () => {
  it('reads archive numbers and ranges the way summaries print them', () => {
    assert.deepEqual(parseRecallQuery('#12').ranges, [{ first: 12, last: 12 }]);
    assert.deepEqual(parseRecallQuery('(→ #12)'), { ranges: [{ first: 12, last: 12 }], terms: [] });
    assert.deepEqual(parseRecallQuery('#12-#40').ranges, [{ first: 12, last: 40 }]);
    assert.deepEqual(parseRecallQuery('archive #12–#40').ranges, [{ first: 12, last: 40 }]);
    assert.deepEqual(parseRecallQuery('#3 #7..9').ranges, [
      { first: 3, last: 3 },
      { first: 7, last: 9 },
    ]);
  });

  it('turns identifiers and quoted phrases into normalised terms', () => {
    assert.deepEqual(parseRecallQuery('TCK-4821').terms, ['tck 4821']);
    assert.deepEqual(parseRecallQuery('/srv/app/config.yaml deploy').terms, ['srv app config yaml', 'deploy']);
    assert.deepEqual(parseRecallQuery('"Issue #12 broke" JIRA-4471').terms, ['issue 12 broke', 'jira 4471']);
    assert.deepEqual(parseRecallQuery('"Issue #12"').ranges, [], 'a # inside quotes is text');
  });

  it('refuses what it cannot run, saying why', () => {
    for (const [query, why] of [
      [42, /must be a string/],
      ['', /names nothing/],
      ['(→ ?)', /names nothing/],
      ['#40-#12', /ends before it starts/],
      ['#99999999999999999999', /too large/],
      ['x'.repeat(1001), /over the 1000 limit/],
      [Array.from({ length: 17 }, (_, i) => `w${i}`).join(' '), /more than 16/],
    ] as const)
      assert.throws(
        () => parseRecallQuery(query),
        (e: unknown) => e instanceof RecallQueryError && why.test(e.message)
      );
  });

  it('takes the words of every string in a message, not its media', () => {
    assert.equal(searchWords('  TCK-4821, (see /a/B.txt)!'), 'tck 4821 see a b txt');
    assert.equal(searchWords('Straße café'), 'straße café');
    const message = {
      role: 'assistant',
      tool_calls: [{ function: { name: 'read', arguments: '{"path":"/x/y"}' } }],
      content: [{ type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } }, { text: 'B'.repeat(300) }],
    };
    assert.equal(messageWords(message), 'assistant read path x y image url', 'field values, not media');
  });
});

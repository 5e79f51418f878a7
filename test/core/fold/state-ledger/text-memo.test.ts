import assert from 'node:assert/strict';
import { memoByText } from '../../../../src/core/fold/state-ledger/text-memo';

describe('core/fold/state-ledger/text-memo', () => {
  it('reads a text once and gives the same result again', () => {
    let calls = 0;
    const length = memoByText((t: string) => {
      calls += 1;
      return t.length;
    });
    assert.equal(length('abc'), 3);
    assert.equal(length('abc'), 3);
    assert.equal(calls, 1);
  });

  it('empties the cache when it holds the limit, and still answers right', () => {
    let calls = 0;
    const upper = memoByText((t: string) => {
      calls += 1;
      return t.toUpperCase();
    }, 2);
    upper('a');
    upper('b');
    assert.equal(upper('c'), 'C', 'the third text empties the cache');
    assert.equal(upper('a'), 'A');
    assert.equal(calls, 4, '"a" was read again after the cache was emptied');
  });
});

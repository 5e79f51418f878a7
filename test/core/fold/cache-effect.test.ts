import { strict as assert } from 'node:assert';
import { foldCacheEffect, sharedPrefixLength } from '../../../src/core/fold/cache-effect';

describe('fold cache effect', () => {
  const system = { role: 'system', content: 'rules' };
  const a = { role: 'user', content: 'a' };
  const b = { role: 'assistant', content: 'b' };
  const summary = { role: 'user', content: 'summary' };

  it('shares the leading elements that are the same objects, and no more', () => {
    assert.equal(sharedPrefixLength([system, a, b], [system, summary, b]), 1);
    assert.equal(sharedPrefixLength([system, a], [system, a, b]), 2);
    // An equal copy is not the same element: the provider sees the same bytes, but a fold never copies what it keeps.
    assert.equal(sharedPrefixLength([system], [{ ...system }]), 0);
    assert.equal(sharedPrefixLength([], [system]), 0);
  });

  it('splits the context before and after at the shared prefix', () => {
    assert.deepEqual(foldCacheEffect(1_000, 14_000, 4_000), {
      cachedTokens: 1_000,
      writtenTokens: 3_000,
      invalidatedTokens: 13_000,
      source: 'estimate',
    });
  });

  it('never reports negative tokens, nor a cached prefix longer than either context', () => {
    assert.deepEqual(foldCacheEffect(5_000, 3_000, 2_000), {
      cachedTokens: 2_000,
      writtenTokens: 0,
      invalidatedTokens: 1_000,
      source: 'estimate',
    });
  });
});

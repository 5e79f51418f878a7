import { strict as assert } from 'node:assert';
import { LruCache, messageKey } from '../../src/tokens';

describe('LruCache', () => {
  it('never holds more than its capacity and evicts the least recently used', () => {
    const cache = new LruCache<number>(3);
    for (let i = 0; i < 10; i++) {
      cache.set(`k${i}`, i);
      assert.ok(cache.size <= 3);
    }
    assert.equal(cache.get('k6'), undefined);
    assert.equal(cache.get('k7'), 7);
    cache.set('k10', 10); // k8 is now the least recently used
    assert.equal(cache.get('k8'), undefined);
    assert.equal(cache.get('k7'), 7);
    assert.equal(cache.get('k9'), 9);
    assert.equal(cache.size, 3);
  });

  it('counts hits and misses; capacity 0 stores nothing', () => {
    const cache = new LruCache<number>(0);
    cache.set('a', 1);
    assert.equal(cache.get('a'), undefined);
    assert.deepEqual([cache.size, cache.hits, cache.misses], [0, 0, 1]);
  });

  it('rejects a negative or fractional capacity', () => {
    assert.throws(() => new LruCache(-1), RangeError);
    assert.throws(() => new LruCache(1.5), RangeError);
  });
});

describe('messageKey', () => {
  it('depends on format and content, not on object identity', () => {
    const m = { role: 'user', content: 'x' };
    assert.equal(messageKey('chat', m), messageKey('chat', { ...m }));
    assert.notEqual(messageKey('chat', m), messageKey('responses', m));
    assert.notEqual(messageKey('chat', m), messageKey('chat', { role: 'user', content: 'y' }));
  });
});

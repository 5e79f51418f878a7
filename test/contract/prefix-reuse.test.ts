import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { prefixReuse } from '../../src/contract/prefix-reuse';

describe('prefix reuse', () => {
  it('counts the messages and tokens of the shared prefix, and the whole context', () => {
    const before = [
      { uid: 'a', rev: 0 },
      { uid: 'b', rev: 0 },
      { uid: 'c', rev: 0 },
    ];
    const after = [
      { uid: 'a', rev: 0, tokens: 5 },
      { uid: 'b', rev: 1, tokens: 7 },
      { uid: 'c', rev: 0, tokens: 11 },
    ];
    assert.deepEqual(prefixReuse(before, after), { messages: 1, tokens: 5, contextTokens: 23 });
  });

  it('told a prefix known shared and the total, gives what comparing everything gives (property)', () => {
    const key = fc.record({ uid: fc.constantFrom('a', 'b', 'c', 'd', 'e'), rev: fc.nat({ max: 1 }) });
    const entry = fc.record({
      uid: fc.constantFrom('a', 'b', 'c', 'd', 'e'),
      rev: fc.nat({ max: 1 }),
      tokens: fc.nat(1000),
    });
    fc.assert(
      fc.property(fc.array(key, { maxLength: 12 }), fc.array(entry, { maxLength: 12 }), fc.nat(12), (b, rest, k) => {
        // `after` repeats a prefix of `before`, then goes its own way.
        const kept = Math.min(k, b.length);
        const after = [...b.slice(0, kept).map((x, i) => ({ ...x, tokens: i * 3 })), ...rest];
        const whole = prefixReuse(b, after);
        const contextTokens = after.reduce((sum, e) => sum + e.tokens, 0);
        for (let from = 0; from <= whole.messages; from++) {
          assert.deepEqual(prefixReuse(b, after, { from, contextTokens }), whole);
        }
      }),
      { numRuns: 1000 }
    );
  });
});

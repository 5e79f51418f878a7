import { strict as assert } from 'node:assert';
import { closest, tooDeep, unknownKeyMessage } from '../../../src/core/input/known-keys';

describe('known keys and nesting', () => {
  it('names an unknown key with its likely meaning, and treats prototype names as unknown', () => {
    assert.equal(unknownKeyMessage({ budget: 1 }, ['budget'], 's'), undefined);
    assert.match(
      unknownKeyMessage({ budgte: 1 }, ['budget', 'model'], 's')!,
      /unknown key 's\.budgte' \(did you mean 'budget'\?\)/
    );
    assert.match(unknownKeyMessage(JSON.parse('{"__proto__": 1}') as object, ['a'], 's')!, /'s\.__proto__'/);
    assert.match(unknownKeyMessage({ constructor: 1 }, ['constructor'], 's')!, /'s\.constructor'/);
    assert.equal(closest('zzzzzz', ['budget']), undefined);
  });

  it('finds the first value nested too deep without recursion', () => {
    let v: unknown = 1;
    for (let i = 0; i < 100_000; i++) v = { a: v };
    assert.equal(tooDeep(v, 64)?.startsWith('.a.a'), true);
    assert.equal(tooDeep({ a: [{ b: 1 }] }, 64), undefined);
    assert.equal(tooDeep({ a: [{ b: {} }] }, 2), '.a[0]');
  });
});

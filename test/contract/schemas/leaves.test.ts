import { strict as assert } from 'node:assert';
import * as z from 'zod/v4-mini';
import { matching, says, text } from '../../../src/contract/schemas/leaves';
import { writerId } from '../../../src/contract/schemas/writer-seq';

/** Freezes `value` and everything it reaches, as the worker does to the modules it preloads. */
function deepFreeze<T>(value: T, seen = new WeakSet<object>()): T {
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return value;
  const object = value as object;
  if (seen.has(object) || Object.isFrozen(object)) return value;
  seen.add(object);
  for (const key of Reflect.ownKeys(object)) {
    try {
      deepFreeze((object as Record<PropertyKey, unknown>)[key], seen);
    } catch {
      // Some objects cannot be frozen (typed arrays); the worker skips them too.
    }
  }
  return Object.freeze(value);
}

describe('schema leaves', () => {
  it('matching: a pattern check that still works once the schema is deep-frozen (a preloaded module)', () => {
    const id = deepFreeze(writerId);
    const nul = deepFreeze(text(20));
    for (let i = 0; i < 3; i++) {
      assert.equal(z.safeParse(id, 'worker-1.a:b@c').success, true);
      assert.equal(z.safeParse(id, 'has space').success, false);
      assert.equal(z.safeParse(nul, 'plain text').success, true);
      assert.equal(z.safeParse(nul, 'a\u0000b').success, false);
    }
    const refused = z.safeParse(nul, 'a\u0000b');
    assert.equal(refused.success ? '' : refused.error.issues[0]?.message, 'must not contain NUL');
  });

  it('matching: the JSON Schema states the pattern; a global or sticky pattern is refused when built', () => {
    const json = z.toJSONSchema(matching(z.string(), /^a+$/, says('must be a run of a')), { target: 'draft-7' });
    assert.equal((json as { pattern?: string }).pattern, '^a+$');
    assert.throws(() => matching(z.string(), /a/g, says('x')), /must be neither global nor sticky/);
    assert.throws(() => matching(z.string(), /a/y, says('x')), /must be neither global nor sticky/);
  });

  it('z.regex, which matching replaces, fails once frozen (why the leaves do not use it)', () => {
    const frozen = deepFreeze(z.string().check(z.regex(/^a+$/)));
    assert.throws(() => z.safeParse(frozen, 'aaa'), /read only property 'lastIndex'/);
  });
});

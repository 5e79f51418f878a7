import { strict as assert } from 'node:assert';
import { PlanOptionsError, resolveOptions } from '../../../src/core/plan/options';
import { normalize } from '../../../src/core/messages/normalize';
import { planFold } from '../../../src/core/plan/plan';
import { plan, say, user } from './fixtures';

describe('planning options', () => {
  it('documents and applies the defaults', () => {
    const o = resolveOptions({ budget: 32_000 });
    assert.equal(o.policy, 'auto');
    assert.equal(o.triggerRatio, 0.9);
    assert.equal(o.minMessages, 4);
    assert.equal(o.targetRatio, 0.5);
    assert.equal(o.summaryReserveTokens, 3200);
    assert.equal(resolveOptions({ budget: 1_000_000 }).summaryReserveTokens, 4096);
    assert.equal(o.keepLast, 4);
    assert.equal(o.keepTurns, 8);
    assert.equal(o.maxRounds, 10);
    assert.equal(o.roundsMode, 'compress');
    assert.equal(o.tailRatio, 0.4);
    assert.equal(o.minFoldTokens, 4000);
    assert.equal(resolveOptions({ budget: 100 }).minFoldTokens, 40);
    assert.equal(o.keepRecentCount, undefined);
    assert.deepEqual(JSON.parse(JSON.stringify(o)), o, 'plain JSON');
  });

  it('rejects bad options with a typed error', () => {
    for (const bad of [
      { budget: 0 },
      { budget: -5 },
      { budget: NaN },
      { budget: 10, triggerRatio: 0 },
      { budget: 10, triggerRatio: 1.5 },
      { budget: 10, policy: 'magic' },
      { budget: 10, keepLast: -1 },
      { budget: 10, keepRecentCount: 1.5 },
      { budget: 10, roundsMode: 'x' },
    ]) {
      assert.throws(() => resolveOptions(bad as never), PlanOptionsError, JSON.stringify(bad));
    }
  });

  it('rejects a tokens array that does not match the items', () => {
    assert.throws(() => plan([user('a'), say('b')], { budget: 10 }, [1]), PlanOptionsError);
    assert.throws(
      () => plan([user('a'), say('b')], { budget: 10 }, [1, -1]),
      /tokens\[1\] must be a non-negative number/
    );
    assert.throws(() => plan([user('a'), say('b')], { budget: 10 }, [NaN, 1]), PlanOptionsError);
  });

  it('declines under the trigger and under minMessages with the numbers in the reason', () => {
    const m = [user('a'), say('b'), user('c'), say('d')];
    const under = plan(m, { budget: 100 }, 10).plan;
    assert.equal(under.fold, false);
    assert.equal(under.reason, '40 tokens is under the trigger of 90');
    assert.deepEqual(under.keep, [0, 1, 2, 3]);
    const few = plan(m.slice(0, 3), { budget: 1 }, 10).plan;
    assert.match(few.reason, /only 3 item\(s\); at least 4/);
  });

  it('counts fixedTokens against the trigger', () => {
    const m = [user('a'), say('b'), user('c'), say('d'), user('e')];
    const options = { budget: 150, policy: 'items' as const, keepLast: 1, minFoldTokens: 0 };
    const withFixed = (fixedTokens: number) =>
      planFold({ transcript: normalize(m), tokens: m.map(() => 10), fixedTokens, options });
    // 5 × 10 = 50 tokens; the trigger is floor(150 × 0.9) = 135.
    assert.equal(withFixed(84).fold, false);
    const p = withFixed(85);
    assert.equal(p.tokens, 135);
    assert.equal(p.fold, true);
    assert.equal(p.keptTokens, 95, 'the kept item plus the fixed tokens');
  });
});

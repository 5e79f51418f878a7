import { strict as assert } from 'node:assert';
import { calls, plan, result, say, sys, user } from '../fixtures';

describe('tokens policy', () => {
  it('keeps the longest safe tail within tailRatio × budget (default 0.4)', () => {
    const msgs = [sys(), user('a'), say('b'), user('c'), calls('x'), result('x'), say('d'), user('e'), say('f')];
    // Budget 1000: tail limit 400; every item 100. Four items would fit, but item 5 answers the call at 4.
    const { plan: p } = plan(msgs, { budget: 1000, policy: 'tokens', minFoldTokens: 0 }, 100);
    assert.equal(p.keptTokens, 400, 'tail 300 plus the hoisted system message');
    assert.equal(p.fold, true);
    assert.deepEqual(p.tail, [6, 7, 8]);
    const { plan: wider } = plan(msgs, { budget: 1000, policy: 'tokens', tailRatio: 0.5, minFoldTokens: 0 }, 100);
    assert.deepEqual(wider.tail, [4, 5, 6, 7, 8]);
  });

  it('never keeps a result without its call when sizing the tail', () => {
    const msgs = [sys(), user('a'), say('b'), calls('x', 'y'), result('x'), result('y'), say('d')];
    const { plan: p } = plan(
      msgs,
      { budget: 1000, policy: 'tokens', tailRatio: 0.3, triggerRatio: 0.5, minFoldTokens: 0 },
      100
    );
    // 3 items fit by tokens (4,5,6) but 4 is a result of the call at 3: the longest safe tail is [6].
    assert.deepEqual(p.tail, [6]);
  });
});

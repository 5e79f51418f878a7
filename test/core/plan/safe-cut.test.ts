import { strict as assert } from 'node:assert';
import { normalize } from '../../../src/core/messages/normalize';
import { cutGroups, safeAtOrBefore, safeCuts } from '../../../src/core/plan/safe-cut';
import { calls, plan, result, say, sys, user } from './fixtures';

describe('safe-cut (shared safety rules)', () => {
  it('forbids cuts between a call and any of its results, parallel calls included', () => {
    const t = normalize([user('q'), calls('a', 'b'), result('b'), result('a'), say('x')]);
    assert.deepEqual(safeCuts(t.items), [true, true, false, false, true, true]);
  });

  it('forbids every cut after a pending call', () => {
    const t = normalize([user('q'), say('x'), calls('a'), user('more'), say('y')]);
    assert.deepEqual(safeCuts(t.items), [true, true, true, false, false, false]);
  });

  it('keeps a reasoning item with the item that follows it', () => {
    const t = normalize([
      { role: 'user', content: 'q' },
      { type: 'reasoning', summary: [] },
      { type: 'function_call', call_id: 'a', name: 'f', arguments: '{}' },
      { type: 'function_call_output', call_id: 'a', output: 'o' },
      { type: 'reasoning', summary: [] },
      { type: 'message', role: 'assistant', content: 'done' },
    ]);
    assert.deepEqual(safeCuts(t.items), [true, true, false, false, true, false, true]);
    assert.deepEqual(cutGroups(t.items), [0, 1, 1, 1, 4, 4]);
  });

  it('pairs reused ids by position when deciding what is safe', () => {
    const t = normalize([user('q'), calls('c'), result('c'), calls('c'), say('thinking'), result('c')]);
    assert.deepEqual(safeCuts(t.items), [true, true, false, true, false, false, true]);
  });

  it('safeAtOrBefore walks back to the nearest safe cut', () => {
    const safe = [true, true, false, false, true];
    assert.equal(safeAtOrBefore(safe, 3), 1);
    assert.equal(safeAtOrBefore(safe, 4), 4);
    assert.equal(safeAtOrBefore([true, false, false], 2), 0);
  });

  it('every policy hoists all instructions, interleaved ones too, to the front of keep', () => {
    const msgs = [
      sys('a'),
      user('1'),
      say('1'),
      sys('b'),
      user('2'),
      say('2'),
      user('3'),
      sys('c'),
      say('3'),
      user('4'),
      say('4'),
    ];
    for (const policy of ['auto', 'turns', 'items', 'ratio', 'tokens'] as const) {
      const { plan: p } = plan(msgs, {
        budget: 10,
        policy,
        keepTurns: 1,
        keepLast: 2,
        minFoldTokens: 0,
        targetRatio: 0.9,
        summaryReserveTokens: 0,
      });
      assert.equal(p.fold, true, policy);
      assert.deepEqual(p.instructions, [0, 3, 7], policy);
      assert.deepEqual(p.keep.slice(0, 3), [0, 3, 7], policy);
      assert.ok(!p.summarize.some((i) => [0, 3, 7].includes(i)), `${policy}: instructions are never summarised`);
    }
  });

  it('a policy cut that would split a pair moves back to a safe point', () => {
    const msgs = [user('q'), say('x'), calls('a', 'b'), result('a'), result('b'), say('y')];
    const { plan: p } = plan(msgs, { budget: 1, policy: 'items', keepLast: 2, minFoldTokens: 0 });
    assert.equal(p.split, 2);
    assert.match(p.reason, /moved from 4 to the nearest safe cut/);
  });

  it('declines when the only safe cut folds nothing', () => {
    const msgs = [sys(), user('q'), calls('a'), say('waiting'), user('again')];
    const { plan: p } = plan(msgs, { budget: 1, policy: 'items', keepLast: 1, minFoldTokens: 0 });
    assert.equal(p.split, 2);
    assert.equal(p.fold, true, 'the user message before the pending call can still be folded');
    const { plan: q } = plan([sys(), calls('a'), say('x'), user('y')], {
      budget: 1,
      policy: 'items',
      keepLast: 1,
      minFoldTokens: 0,
    });
    assert.equal(q.fold, false);
  });
});

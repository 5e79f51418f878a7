import { strict as assert } from 'node:assert';
import { normalize } from '../../../src/core/messages/normalize';
import { planFold } from '../../../src/core/plan/plan';
import type { CompactionOptions } from '../../../src/core/plan/options';
import { keepVerbatim } from '../../../src/core/plan/selector';
import { calls, plan, result, say, sys, user } from './fixtures';

const msgs = [
  sys(),
  user('remember: deploy on friday'),
  calls('note#1'),
  result('note#1'),
  say('ok'),
  user('b'),
  say('c'),
  user('d'),
  say('e'),
];
const base = { budget: 1, policy: 'items' as const, keepLast: 2, minFoldTokens: 0 };

describe('keep-verbatim selector (`pin`) and filter (seed 002 WithPin, WithFilter)', () => {
  it('keeps pinned items of the folded part verbatim after the summary, and still summarises them', () => {
    const { plan: p } = plan(msgs, { ...base, pin: { indices: [1] } });
    assert.deepEqual(p.pinned, [1]);
    assert.deepEqual(p.keep, [0, 1, 7, 8]);
    assert.ok(p.summarize.includes(1));
    assert.ok(!p.dropped.includes(1));
  });

  it('pins a call together with all its results (pin by tool name or by either member)', () => {
    for (const pin of [{ tools: ['note'] }, { indices: [3] }, { indices: [2] }]) {
      const { plan: p } = plan(msgs, { ...base, pin });
      assert.deepEqual(p.pinned, [2, 3], JSON.stringify(pin));
    }
  });

  it('pins by role and by id', () => {
    assert.deepEqual(plan(msgs, { ...base, pin: { roles: ['user'] } }).plan.pinned, [1, 5]);
    const s0 = normalize([
      { type: 'user', text: 'a', id: 'keep-me' },
      { type: 'bot', text: 'b' },
      { type: 'user', text: 'c' },
      { type: 'bot', text: 'd' },
      { type: 'user', text: 'e' },
    ]);
    const p = planFold({ transcript: s0, tokens: [1, 1, 1, 1, 1], options: { ...base, pin: { ids: ['keep-me'] } } });
    assert.deepEqual(p.pinned, [0]);
  });

  it('filters items out of the summary but still removes them from the context', () => {
    const { plan: p } = plan(msgs, { ...base, filter: { tools: ['note'] } });
    assert.deepEqual(p.summarize, [1, 4, 5, 6]);
    assert.ok(p.dropped.includes(2) && p.dropped.includes(3));
    assert.ok(!p.keep.includes(2) && !p.keep.includes(3));
  });

  it('a filtered item is not pinned', () => {
    const { plan: p } = plan(msgs, { ...base, pin: { indices: [1] }, filter: { indices: [1] } });
    assert.deepEqual(p.pinned, []);
  });

  it('accepts predicate functions for the embedded API', () => {
    const t = normalize(msgs);
    const p = planFold({
      transcript: t,
      tokens: msgs.map(() => 1),
      options: base,
      predicates: {
        pin: (it) => it.text.includes('friday'),
        filter: (it) => it.role === 'assistant' && it.text === 'ok',
      },
    });
    assert.deepEqual(p.pinned, [1]);
    assert.ok(!p.summarize.includes(4));
  });

  it('declines when every folded item is filtered out', () => {
    const { plan: p } = plan([user('a'), say('b'), user('c'), say('d')], { ...base, filter: { indices: [0, 1] } });
    assert.equal(p.fold, false);
    assert.match(p.reason, /filtered out/);
  });

  it('takes more items to keep verbatim (the pinned messages of a conversation) beside the selector given', () => {
    const options = { ...base, pin: { tools: ['note'], indices: [5] } };
    assert.equal(keepVerbatim(options, []), options);
    const more = keepVerbatim(options, [1]);
    assert.deepEqual(more.pin, { tools: ['note'], indices: [5, 1] });
    assert.deepEqual(options.pin, { tools: ['note'], indices: [5] }, 'the options given are not changed');
    assert.deepEqual(plan(msgs, more).plan.pinned, [1, 2, 3, 5]);
    assert.deepEqual(keepVerbatim<CompactionOptions>(base, [1]).pin, { indices: [1] });
  });
});

describe('min-fold (seed 002)', () => {
  it('declines a folded part under minFoldTokens and folds one at it', () => {
    const m = [user('a'), say('b'), user('c'), say('d'), user('e'), say('f')];
    const opts = { budget: 1, policy: 'items' as const, keepLast: 2 };
    assert.equal(plan(m, { ...opts, minFoldTokens: 41 }, 10).plan.fold, false);
    assert.match(plan(m, { ...opts, minFoldTokens: 41 }, 10).plan.reason, /under the minimum fold of 41/);
    assert.equal(plan(m, { ...opts, minFoldTokens: 40 }, 10).plan.fold, true);
  });

  it('defaults to max(budget / 8, 2 × emptySummaryTokens)', () => {
    const m = [user('a'), say('b'), user('c'), say('d'), user('e'), say('f')];
    // budget 400 → 50; four folded items of 12 = 48 < 50.
    assert.equal(plan(m, { budget: 400, triggerRatio: 0.1, policy: 'items', keepLast: 2 }, 12).plan.fold, false);
    assert.equal(plan(m, { budget: 400, triggerRatio: 0.1, policy: 'items', keepLast: 2 }, 13).plan.fold, true);
    // budget 80 → max(10, 2 × 30) = 60 with emptySummaryTokens 30.
    assert.equal(
      plan(m, { budget: 80, triggerRatio: 0.1, policy: 'items', keepLast: 2, emptySummaryTokens: 30 }, 14).plan.fold,
      false
    );
    assert.equal(
      plan(m, { budget: 80, triggerRatio: 0.1, policy: 'items', keepLast: 2, emptySummaryTokens: 30 }, 15).plan.fold,
      true
    );
  });
});

// Seed 003 (chat-agent) rounds: compress the oldest half, or truncate.
import { strict as assert } from 'node:assert';
import { plan, say, sys, user, calls, result, type Msg } from '../fixtures';
import { SUMMARY_MARKER } from '../../../../src/core/messages/summary-marker';

const rounds = (r: number): Msg[] => [
  sys(),
  ...Array.from({ length: r }, (_, k) => [user(`u${k}`), say(`a${k}`)]).flat(),
];
const opts = (o: Record<string, unknown> = {}) => ({
  budget: 1_000_000,
  policy: 'rounds' as const,
  minFoldTokens: 0,
  ...o,
});

describe('rounds policy (seed 003)', () => {
  it('does nothing at or under maxRounds (default 10), whatever the tokens', () => {
    const { plan: p } = plan(rounds(10), opts({ budget: 1 }));
    assert.equal(p.fold, false);
    assert.match(p.reason, /10 round/);
  });

  it('fires on the round count even far under the token trigger', () => {
    const { plan: p } = plan(rounds(11), opts());
    assert.equal(p.fold, true);
    // floor(11/2) = 5 rounds folded: items 1..10; instructions hoisted.
    assert.equal(p.split, 11);
    assert.deepEqual(
      p.summarize,
      [...Array(10).keys()].map((k) => k + 1)
    );
    assert.deepEqual(p.keep.slice(0, 2), [0, 11]);
  });

  it('folds 11 short rounds at the default 128k budget: no min-fold floor for rounds unless set', () => {
    const { plan: p } = plan(rounds(11), { budget: 128_000, policy: 'rounds' });
    assert.equal(p.fold, true, p.reason);
    assert.equal(p.split, 11);
    const floored = plan(rounds(11), { budget: 128_000, policy: 'rounds', minFoldTokens: 100 }).plan;
    assert.equal(floored.fold, false, 'an explicit minFoldTokens still applies');
    assert.match(floored.reason, /under the minimum fold of 100/);
  });

  it('needs at least 3 rounds to fold', () => {
    assert.equal(plan(rounds(5), opts({ maxRounds: 4 })).plan.fold, false, '5 rounds → 2 to fold');
    const { plan: p } = plan(rounds(6), opts({ maxRounds: 4 }));
    assert.equal(p.fold, true, '6 rounds → 3 to fold');
    assert.equal(p.split, 7);
  });

  it('counts a leading summary as a round, as seed 003 does with its summary round', () => {
    const msgs = [
      sys(),
      { role: 'user', content: `${SUMMARY_MARKER}: 9 earlier item(s) folded]\n\nold` },
      ...rounds(5).slice(1),
    ];
    const { plan: p } = plan(msgs, opts({ maxRounds: 5 }));
    assert.equal(p.fold, true, '6 rounds with the summary');
    assert.ok(p.summarize.includes(1), 'the previous summary is folded into the new one');
  });

  it('keeps a round with tool calls whole', () => {
    const msgs = [...rounds(3), user('u3'), calls('c'), result('c'), say('a3'), ...rounds(4).slice(1)];
    const { plan: p, t } = plan(msgs, opts({ maxRounds: 6 }));
    assert.equal(p.fold, true);
    for (const it of t.items)
      if (it.answers) assert.equal(p.keep.includes(it.index), p.keep.includes(it.answers.itemIndex));
  });

  it('truncate mode drops the oldest rounds without a summary until maxRounds remain', () => {
    const { plan: p } = plan(rounds(12), opts({ roundsMode: 'truncate' }));
    assert.equal(p.kind, 'truncate');
    assert.equal(p.fold, false);
    assert.deepEqual(p.dropped, [1, 2, 3, 4]);
    assert.deepEqual(p.summarize, []);
    assert.deepEqual(p.keep, [0, ...Array.from({ length: 20 }, (_, k) => k + 5)]);
  });
});

import { strict as assert } from 'node:assert';
import { SUMMARY_MARKER } from '../../../../src/core/messages/summary-marker';
import { CARRIED_RESERVE_SHARE, PlanOptionsError, resolveOptions } from '../../../../src/core/plan/options';
import { calls, plan, result, say, sys, user, type Msg } from '../fixtures';

/** One long agent turn: a task, then `n` call/result pairs of the given size. */
function longTurn(n: number): Msg[] {
  const out: Msg[] = [sys(), user('fix the failing test in parser.py')];
  for (let k = 0; k < n; k++) out.push(calls(`bash#${k}`), result(`bash#${k}`));
  return out;
}

describe('auto policy (default)', () => {
  const budget = 10_000;

  it('is the default policy', () => {
    const { plan: p } = plan(longTurn(30), { budget }, 300);
    assert.equal(p.policy, 'auto');
  });

  it('folds a single-turn session inside the turn and pins the task message', () => {
    const msgs = longTurn(30); // 62 items × 300 = 18 600 tokens
    const { plan: p, t } = plan(msgs, { budget }, 300);
    assert.equal(p.fold, true);
    assert.deepEqual(p.pinned, [1], 'the turn opener stays verbatim');
    assert.ok(p.summarize.includes(1), 'and is summarised too');
    // Target: 0.5 × 10 000 − reserve 1 000 = 4 000 for instructions, pinned and tail.
    assert.ok(p.keptTokens <= 4000, `kept ${p.keptTokens}`);
    assert.ok(p.keptTokens > 4000 - 2 * 300, 'the longest tail within the target');
    assert.ok(!t.items[p.split]!.turnStart);
    assert.equal(t.items[p.split]!.role, 'assistant', 'cut before a call, never between call and result');
  });

  it('prefers a user-turn boundary when it keeps enough', () => {
    const msgs: Msg[] = [sys()];
    for (let turn = 0; turn < 6; turn++) {
      msgs.push(user(`task ${turn}`));
      for (let k = 0; k < 3; k++) msgs.push(calls(`t${turn}#${k}`), result(`t${turn}#${k}`));
      msgs.push(say(`done ${turn}`));
    }
    // 6 turns × 8 items × 100 tokens: one turn = 800; with the 100-token system message, 4 whole turns fit 4 000.
    const { plan: p, t } = plan(
      msgs,
      { budget: 4000, targetRatio: 1, summaryReserveTokens: 0, triggerRatio: 0.5 },
      100
    );
    assert.equal(p.fold, true);
    assert.ok(t.items[p.split]!.turnStart, 'the cut is at a user turn');
    assert.equal(p.tail.length, 32);
    assert.equal(p.keptTokens, 3300);
    assert.deepEqual(p.pinned, []);
  });

  it('cuts inside a turn when the turn boundary would keep too little', () => {
    const msgs: Msg[] = [sys(), user('old task'), say('ok'), user('big task')];
    for (let k = 0; k < 50; k++) msgs.push(calls(`c#${k}`), result(`c#${k}`));
    const { plan: p, t } = plan(msgs, { budget }, 100);
    assert.equal(p.fold, true);
    assert.ok(p.split > 3, 'past the last turn boundary');
    assert.ok(!t.items[p.split]!.turnStart);
    assert.deepEqual(p.pinned, [3]);
  });

  it('does not pin an opener larger than pinTurnOpening × budget', () => {
    const msgs = longTurn(30);
    const tokens = msgs.map((_, i) => (i === 1 ? 1500 : 300));
    const { plan: p } = plan(msgs, { budget }, tokens);
    assert.equal(p.fold, true);
    assert.deepEqual(p.pinned, []);
  });

  it('lands the folded context well under the trigger: re-planning it does not fold again', () => {
    const msgs = longTurn(30);
    const { plan: p } = plan(msgs, { budget }, 300);
    const summaryTokens = 800;
    const after = p.keptTokens + summaryTokens;
    assert.ok(after < 0.6 * budget, `after fold: ${after}`);
    const folded = [...p.keep.map((i) => msgs[i]!)];
    const again = plan(folded, { budget }, 300).plan;
    assert.equal(again.fold, false);
  });

  it('keeps the shortest safe tail when nothing meets the target', () => {
    const msgs = [sys(), user('q'), say('a'), user('q2'), say('huge answer')];
    const { plan: p } = plan(msgs, { budget: 1000, minFoldTokens: 0 }, [10, 10, 10, 10, 900]);
    assert.equal(p.fold, true);
    assert.equal(p.split, 4);
    assert.match(p.reason, /no safe cut meets the target/);
  });

  describe('summaryReserve', () => {
    /** A session that was folded before: the earlier summary, then one long turn. */
    const folded = (): Msg[] => [
      sys(),
      user(`${SUMMARY_MARKER}: 40 earlier item(s) folded]\n\nRules: …`),
      ...longTurn(30).slice(1),
    ];
    // 10 000 budget: system 300, the earlier summary 1 200, the task 300, then 60 items of 300.
    const counts = (msgs: Msg[]): number[] => msgs.map((_, i) => (i === 1 ? 1200 : 300));

    it("'fixed' (the default) sets aside summaryReserveTokens whatever earlier summaries take", () => {
      const msgs = folded();
      const { plan: p } = plan(msgs, { budget }, counts(msgs));
      assert.equal(resolveOptions({ budget }).summaryReserve, 'fixed');
      // Target 0.5 × 10 000 − 1 000 = 4 000.
      assert.ok(p.keptTokens <= 4000 && p.keptTokens > 4000 - 2 * 300, `kept ${p.keptTokens}`);
      assert.equal(p.carriedRoomTokens, undefined);
    });

    it("'carried' sets aside what the earlier summary takes, so the kept tail shrinks first", () => {
      const msgs = folded();
      const { plan: p } = plan(msgs, { budget, summaryReserve: 'carried' }, counts(msgs));
      assert.ok(1200 <= Math.floor(CARRIED_RESERVE_SHARE * budget));
      assert.equal(p.carriedRoomTokens, 1200);
      // Target 0.5 × 10 000 − 1 200 = 3 800.
      assert.ok(p.keptTokens <= 3800 && p.keptTokens > 3800 - 2 * 300, `kept ${p.keptTokens}`);
    });

    it("'carried' sets aside at most CARRIED_RESERVE_SHARE of the budget, and never less than the fixed reserve", () => {
      const msgs = folded();
      const big = msgs.map((_, i) => (i === 1 ? 9000 : 300));
      const { plan: p } = plan(msgs, { budget, triggerRatio: 1, summaryReserve: 'carried' }, big);
      assert.equal(p.carriedRoomTokens, Math.floor(CARRIED_RESERVE_SHARE * budget));
      const fresh = longTurn(30);
      const { plan: q } = plan(fresh, { budget, summaryReserve: 'carried' }, 300);
      assert.equal(q.carriedRoomTokens, 1000, 'no earlier summary: the fixed reserve');
    });

    it('refuses an unknown value by name', () => {
      assert.throws(
        () => resolveOptions({ budget, summaryReserve: 'grow' as never }),
        (e: unknown) => e instanceof PlanOptionsError && /summaryReserve must be one of fixed, carried/.test(e.message)
      );
    });
  });
});

// Ports of seed 001's (memcode) Plan tests, by name, over chat-format sessions.
import { strict as assert } from 'node:assert';
import { normalize } from '../../../../src/core/messages/normalize';
import { plan, session, sides, user, calls, result, say } from '../fixtures';

const turnsOpts = (keepTurns: number) => ({ budget: 1, policy: 'turns' as const, keepTurns, minFoldTokens: 0 });

describe('turns policy (seed 001 Plan)', () => {
  it('TestPlanNotEnoughTurns', () => {
    const { plan: p } = plan(session(3), turnsOpts(8));
    assert.equal(p.fold, false);
    assert.match(p.reason, /3 user turn/);
  });

  it('TestPlanKeepsLastKTurnsRaw', () => {
    const msgs = session(12);
    const { plan: p, t } = plan(msgs, turnsOpts(4));
    assert.equal(p.fold, true);
    const tailTurns = p.tail.filter((i) => t.items[i]!.turnStart).length;
    const headTurns = p.summarize.filter((i) => t.items[i]!.turnStart).length;
    assert.equal(tailTurns, 4);
    assert.equal(headTurns + tailTurns, 12);
    assert.ok(t.items[p.tail[0]!]!.turnStart, 'the tail starts with a turn start');
    assert.equal(p.split, p.tail[0]);
  });

  it('TestPlanNeverSplitsToolPair', () => {
    const msgs = session(12);
    for (let k = 1; k <= 10; k++) {
      const { plan: p, t } = plan(msgs, turnsOpts(k));
      assert.equal(p.fold, true, `k=${k}`);
      const side = sides(p, msgs.length);
      for (const it of t.items) {
        if (it.answers)
          assert.equal(side[it.index], side[it.answers.itemIndex], `k=${k}: result ${it.index} and its call`);
      }
    }
  });

  it('TestPlanBoundaryWithToolHeavyTail', () => {
    const msgs = [
      user('first'),
      say('ok first'),
      user('second'),
      say('ok second'),
      user('third'),
      calls('grep#1', 'grep#2'),
      result('grep#1'),
      result('grep#2'),
      calls('bash#1'),
      result('bash#1'),
      say('done third'),
    ];
    const { plan: p } = plan(msgs, turnsOpts(1));
    assert.equal(p.fold, true);
    assert.equal(p.split, 4);
    assert.deepEqual(p.tail, [4, 5, 6, 7, 8, 9, 10]);
  });

  it('TestToolResultIsNotATurnStart', () => {
    const chat = normalize([user('go'), calls('a'), result('a')]);
    assert.deepEqual(
      chat.items.map((i) => i.turnStart),
      [true, false, false]
    );
    const responses = normalize([
      { role: 'user', content: [{ type: 'input_text', text: 'go' }] },
      { type: 'function_call', call_id: 'a', name: 'f', arguments: '{}' },
      { type: 'function_call_output', call_id: 'a', output: 'x' },
    ]);
    assert.deepEqual(
      responses.items.map((i) => i.turnStart),
      [true, false, false]
    );
  });

  it('does not count tool results as turns when choosing the boundary', () => {
    // Two real turns and many results: keeping 1 turn cuts at the second user message, not at a result.
    const msgs = [user('a'), calls('x'), result('x'), calls('y'), result('y'), user('b'), calls('z'), result('z')];
    const { plan: p } = plan(msgs, turnsOpts(1));
    assert.equal(p.split, 5);
  });
});

// Every corpus conversation replayed message by message against a 32k budget, with the default policy and a
// stand-in summary of fixed size: after each fold the context is at or under the budget.
import { strict as assert } from 'node:assert';
import { normalize } from '../../../src/core/messages/normalize';
import { planFold } from '../../../src/core/plan/plan';
import { clipOversized } from '../../../src/core/plan/clip-oversized';
import { applyFold } from '../../../src/core/fold/apply';
import { createTokenCounter } from '../../../src/tokens';
import { corpusConversations } from '../../support/corpus';
import { planProblems } from './invariants';
import type { KeepPolicy } from '../../../src/core/plan/options';

const BUDGET = 32_000;
const counter = createTokenCounter({ model: 'gpt-4o' });
/** A stand-in summary of fixed size (about 700 tokens), standing for what a summarizer would return. */
const SUMMARY = Array.from(
  { length: 100 },
  (_, k) => `Fact ${k}: file src/module_${k}.py line ${k * 7} was changed.`
).join('\n');

interface Replay {
  folds: number;
  clips: number;
  maxAfter: number;
  afters: number[];
  total: number;
}

function replay(messages: readonly unknown[], name: string, policy: KeepPolicy, budget = BUDGET): Replay {
  let live: unknown[] = [];
  const seq = new Map<unknown, number>();
  const r: Replay = { folds: 0, clips: 0, maxAfter: 0, afters: [], total: 0 };
  const count = (): number[] => counter.countMessages(live, 'chat');
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0) + counter.replyPriming;
  messages.forEach((m, k) => {
    live.push(m);
    seq.set(m, k);
    let t = normalize(live, 'chat');
    let tokens = count();
    const clipped = clipOversized({
      transcript: t,
      tokens,
      budget,
      archiveRef: (i) => `archive:${name}#${seq.get(live[i]) ?? 'summary'}`,
    });
    if (clipped.length > 0) {
      for (const c of clipped) {
        seq.set(c.raw, seq.get(live[c.index])!);
        live[c.index] = c.raw;
      }
      r.clips += clipped.length;
      t = normalize(live, 'chat');
      tokens = count();
      assert.ok(
        clipped.every((c) => tokens[c.index]! <= budget / 2),
        `${name}@${k}: a clipped item fits half the budget`
      );
    }
    const plan = planFold({
      transcript: t,
      tokens,
      fixedTokens: counter.replyPriming,
      options: { budget, policy },
    });
    assert.deepEqual(planProblems(t, plan), [], `${name}@${k}`);
    if (!plan.fold) return;
    live = applyFold({ transcript: t, plan, summary: { kind: 'text', text: SUMMARY } });
    normalize(live, 'chat'); // still a valid transcript
    const after = sum(count());
    r.folds++;
    r.afters.push(after);
    r.maxAfter = Math.max(r.maxAfter, after);
    assert.ok(after <= budget, `${name}@${k}: ${after} tokens after the fold, over the budget of ${budget}`);
  });
  r.total = messages.reduce<number>((a, m) => a + counter.countMessage(m, 'chat'), 0);
  return r;
}

describe('corpus replay at a 32k budget (default policy)', function () {
  this.timeout(300_000);
  for (const conv of corpusConversations()) {
    it(`${conv.name}: at or under budget after every fold, folding only when needed`, () => {
      const r = replay(conv.messages, conv.name, 'auto');
      if (r.total > BUDGET) assert.ok(r.folds > 0, 'a conversation larger than the budget folds');
      if (r.total < 0.9 * BUDGET) assert.equal(r.folds, 0, 'one that never reaches the trigger does not');
      // No thrash: a fold lands near half the budget, so the next needs ~40% of the budget of new tokens.
      assert.ok(r.folds <= Math.ceil(r.total / (0.3 * BUDGET)), `${r.folds} folds for ${r.total} tokens`);
      for (const a of r.afters) assert.ok(a <= 0.75 * BUDGET, `after-fold size ${a} is well under the trigger`);
    });
  }

  it('the small sessions, replayed at an 8k budget, also fold and stay under it', () => {
    for (const conv of corpusConversations().filter((c) => c.messages.length < 70)) {
      const r = replay(conv.messages, conv.name, 'auto', 8000);
      assert.ok(r.folds > 0, conv.name);
      assert.ok(r.maxAfter <= 8000, `${conv.name}: ${r.maxAfter}`);
    }
  });

  it('the tokens policy also stays under budget on the largest sessions', () => {
    for (const conv of corpusConversations().filter((c) => c.messages.length > 200)) {
      const r = replay(conv.messages, conv.name, 'tokens');
      assert.ok(r.folds > 0);
      assert.ok(r.maxAfter <= BUDGET);
    }
  });
});

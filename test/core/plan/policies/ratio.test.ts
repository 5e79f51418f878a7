// Seed 000 (openzot) split and trigger behaviour, over typed messages.
import { strict as assert } from 'node:assert';
import { normalize } from '../../../../src/core/messages/normalize';
import { planFold } from '../../../../src/core/plan/plan';
import type { CompactionOptions } from '../../../../src/core/plan/options';

const alternating = (n: number, len = 10) =>
  Array.from({ length: n }, (_, i) => ({ type: i % 2 === 0 ? 'user' : 'bot', text: 'x'.repeat(len) }));
/** Seed 000's estimate: ceil(len / 4 × 1.25), no overhead. */
const seedTokens = (msgs: { text: string }[]) => msgs.map((m) => Math.ceil((m.text.length / 4) * 1.25));

function ratio(msgs: { type: string; text: string }[], options: Partial<CompactionOptions> & { budget: number }) {
  return planFold({
    transcript: normalize(msgs, 'typed'),
    tokens: seedTokens(msgs),
    options: { policy: 'ratio', minFoldTokens: 0, ...options },
  });
}

describe('ratio policy (seed 000 split and check)', () => {
  it('folds the first 15 of 20 alternating messages and keeps 5', () => {
    const p = ratio(alternating(20, 400), { budget: 2776 });
    assert.equal(p.fold, true);
    assert.equal(p.threshold, 2498);
    assert.deepEqual(p.summarize, [...Array(15).keys()]);
    assert.deepEqual(p.keep, [15, 16, 17, 18, 19]);
  });

  it('folds at exactly the threshold and not one token below it', () => {
    const msgs = alternating(20, 200); // 20 × 63 = 1260 tokens
    assert.equal(ratio(msgs, { budget: 1399 }).fold, true, 'threshold 1259');
    assert.equal(ratio(msgs, { budget: 1401 }).fold, true, 'threshold floor(1260.9) = 1260 is reached');
    assert.equal(ratio(msgs, { budget: 1402 }).fold, false, 'threshold floor(1261.8) = 1261 is not');
  });

  it('honours triggerRatio', () => {
    const msgs = alternating(20, 400);
    assert.equal(ratio(msgs, { budget: 4999 }).fold, false);
    assert.equal(ratio(msgs, { budget: 4999, triggerRatio: 0.5 }).fold, true);
  });

  it('declines under 4 messages whatever the tokens', () => {
    const p = ratio(alternating(3, 10000), { budget: 1 });
    assert.equal(p.fold, false);
    assert.match(p.reason, /at least 4/);
  });

  it('keepRecentCount replaces the formula unconditionally', () => {
    assert.deepEqual(ratio(alternating(10), { budget: 1, keepRecentCount: 3 }).keep, [7, 8, 9]);
    const all = ratio(alternating(4), { budget: 1, keepRecentCount: 0 });
    assert.equal(all.fold, true);
    assert.deepEqual(all.summarize, [0, 1, 2, 3]);
    assert.deepEqual(all.keep, []);
    assert.equal(ratio(alternating(4), { budget: 1, keepRecentCount: 100 }).fold, false);
  });

  it('hoists instructions from the folded part to the front of keep', () => {
    const msgs = [{ type: 'instructions', text: 'you are careful.' }, ...alternating(10)];
    const p = ratio(msgs, { budget: 1 });
    assert.deepEqual(p.summarize, [1, 2, 3, 4, 5, 6, 7]);
    assert.deepEqual(p.keep, [0, 8, 9, 10]);
    assert.deepEqual(p.instructions, [0]);
  });

  it('declines when the folded part holds only instructions', () => {
    const msgs = Array.from({ length: 4 }, () => ({ type: 'instructions', text: 'rule' }));
    const p = ratio(msgs, { budget: 1 });
    assert.equal(p.fold, false);
    assert.match(p.reason, /nothing before the cut can be summarised/);
  });
});

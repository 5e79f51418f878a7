import { strict as assert } from 'node:assert';
import { applyFold, applyTruncate, foldedMeta, type FoldedMeta } from '../../../src/core/fold/apply';
import { planFold } from '../../../src/core/plan/plan';
import { checkFoldResult } from '../../../src/core/fold/check';
import { FoldApplyError } from '../../../src/core/fold/errors';
import { normalize } from '../../../src/core/messages/normalize';
import { SUMMARY_MARKER } from '../../../src/core/messages/summary-marker';
import { layout, transcript } from './items';

/** An adapter stand-in that records what it was asked to build. */
function recordingAdapter() {
  const calls: { text: string; meta: FoldedMeta }[] = [];
  return {
    calls,
    summaryItem(text: string, meta: FoldedMeta) {
      calls.push({ text, meta });
      return { summary: text, ...meta };
    },
  };
}

const ns = (raws: unknown[]) => raws.map((r) => (r as { n?: number }).n ?? r);

describe('core/fold/apply', () => {
  const t = transcript([
    { role: 'instructions' },
    { role: 'user', id: 'u1' },
    { role: 'assistant', id: 'a1', calls: ['c1'] },
    { role: 'tool', answers: 'c1' },
    { role: 'user', id: 'u2' },
    { role: 'assistant', id: 'a2' },
    { role: 'user', id: 'u3' },
    { role: 'assistant' },
  ]);

  it('puts instructions, then the summary, then pinned items, then the tail', () => {
    const adapter = recordingAdapter();
    const out = applyFold({ transcript: t, plan: layout(t, 6, [4]), summary: { kind: 'text', text: 'S' }, adapter });
    assert.deepEqual(ns(out), [0, { summary: 'S', droppedCount: 4, summarizedIds: ['u1', 'a1', 'a2'] }, 4, 6, 7]);
  });

  it('keeps the caller raws as they are, by reference', () => {
    const out = applyFold({ transcript: t, plan: layout(t, 6), summary: { kind: 'items', items: [] } });
    assert.equal(out[0], t.items[0]!.raw);
    assert.equal(out[1], t.items[6]!.raw);
    assert.equal(out[2], t.items[7]!.raw);
  });

  it('trims the summary text and tells the adapter what it replaced', () => {
    const adapter = recordingAdapter();
    applyFold({ transcript: t, plan: layout(t, 4), summary: { kind: 'text', text: '  \n trimmed \n  ' }, adapter });
    assert.deepEqual(adapter.calls, [{ text: 'trimmed', meta: { droppedCount: 3, summarizedIds: ['u1', 'a1'] } }]);
  });

  it('splices compaction-endpoint items in as returned', () => {
    const items = [
      { type: 'compaction', encrypted_content: 'xyz' },
      { type: 'message', role: 'user' },
    ];
    const out = applyFold({ transcript: t, plan: layout(t, 6), summary: { kind: 'items', items } });
    assert.equal(out.length, 5);
    assert.equal(out[1], items[0]);
    assert.equal(out[2], items[1]);
    assert.deepEqual(ns(out), [0, items[0], items[1], 6, 7]);
  });

  it('hoists an instructions item the plan left in the tail', () => {
    const u = transcript([{ role: 'user' }, { role: 'assistant' }, { role: 'instructions' }, { role: 'user' }]);
    const out = applyFold({ transcript: u, plan: layout(u, 1), summary: { kind: 'items', items: ['S'] } });
    assert.deepEqual(ns(out), [2, 'S', 1, 3]);
  });

  it('counts a previous summary among the dropped items so it is folded, not stacked', () => {
    const u = transcript([{ role: 'summary', id: 's0' }, { role: 'user' }, { role: 'assistant' }, { role: 'user' }]);
    assert.deepEqual(foldedMeta(u, layout(u, 3)), { dropped: [0, 1, 2], droppedCount: 3, summarizedIds: ['s0'] });
  });

  it('refuses a plan that does not fold', () => {
    assert.throws(
      () => applyFold({ transcript: t, plan: { ...layout(t, 6), fold: false }, summary: { kind: 'items', items: [] } }),
      FoldApplyError
    );
  });

  it("uses the transcript format's own adapter by default: a typed context message with meta", () => {
    const msgs = [
      { type: 'instructions', text: 'sys' },
      { id: 'm1', type: 'user', text: 'q1' },
      { id: 'm2', type: 'bot', text: 'a1' },
      { type: 'user', text: 'q2' },
      { type: 'bot', text: 'a2' },
    ];
    const s0 = normalize(msgs, 'typed');
    const out = applyFold({ transcript: s0, plan: layout(s0, 3), summary: { kind: 'text', text: ' gist \n' } });
    assert.deepEqual(out, [
      msgs[0],
      {
        type: 'context',
        text: '[Conversation summary - 2 earlier message(s) condensed]\n\ngist',
        meta: { compacted: true, droppedCount: 2, summarizedIds: ['m1', 'm2'] },
      },
      msgs[3],
      msgs[4],
    ]);
  });

  it('writes a chat summary as a user message that opens with the summary marker', () => {
    const msgs = [
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'q1' },
      { role: 'assistant', content: 'a1' },
      { role: 'user', content: 'q2' },
    ];
    const chat = normalize(msgs, 'chat');
    const out = applyFold({ transcript: chat, plan: layout(chat, 3), summary: { kind: 'text', text: 'gist' } });
    assert.equal(out.length, 3);
    assert.equal(out[0], msgs[0]);
    assert.equal(out[2], msgs[3]);
    const summary = out[1] as { role: string; content: unknown };
    assert.equal(summary.role, 'user');
    assert.ok(typeof summary.content === 'string' && summary.content.startsWith(SUMMARY_MARKER));
    assert.ok(summary.content.includes('gist'));
    // Normalising the folded context again finds the summary, so the next fold folds it instead of stacking it.
    assert.equal(normalize(out, 'chat').items[1]!.role, 'summary');
  });

  it('refuses a layout that splits a call from its result, listing the violation', () => {
    try {
      applyFold({ transcript: t, plan: layout(t, 3), summary: { kind: 'items', items: [] } });
      assert.fail('expected a FoldApplyError');
    } catch (e) {
      assert.ok(e instanceof FoldApplyError);
      assert.deepEqual(
        e.violations.map((v) => [v.kind, v.index]),
        [['call-split', 3]]
      );
    }
  });
});

describe('core/fold/apply: applyTruncate', () => {
  const t = transcript([
    { role: 'instructions' },
    { role: 'user' },
    { role: 'assistant', calls: ['c1'] },
    { role: 'tool', answers: 'c1' },
    { role: 'user' },
    { role: 'assistant' },
  ]);

  it('drops the folded part without a summary, instructions first', () => {
    const out = applyTruncate({ transcript: t, plan: { ...layout(t, 4), fold: false, kind: 'truncate' } });
    assert.deepEqual(ns(out), [0, 4, 5]);
    assert.equal(out[1], t.items[4]!.raw);
  });

  it('refuses a plan of another kind and an unsafe layout', () => {
    assert.throws(() => applyTruncate({ transcript: t, plan: layout(t, 4) }), FoldApplyError);
    assert.throws(
      () => applyTruncate({ transcript: t, plan: { ...layout(t, 3), fold: false, kind: 'truncate' } }),
      (e: unknown) => e instanceof FoldApplyError && e.violations[0]?.kind === 'call-split'
    );
  });

  it("applies seed 003's truncate plan from planFold", () => {
    const msgs: Record<string, unknown>[] = [{ role: 'system', content: 'sys' }];
    for (let r = 0; r < 6; r++) msgs.push({ role: 'user', content: `q${r}` }, { role: 'assistant', content: `a${r}` });
    const chat = normalize(msgs, 'chat');
    const p = planFold({
      transcript: chat,
      tokens: msgs.map(() => 10),
      options: { budget: 100_000, policy: 'rounds', roundsMode: 'truncate', maxRounds: 3 },
    });
    assert.equal(p.kind, 'truncate');
    const out = applyTruncate({ transcript: chat, plan: p });
    assert.equal(out[0], msgs[0]);
    assert.deepEqual(out.slice(1), msgs.slice(msgs.length - out.length + 1));
    assert.ok(out.length < msgs.length);
  });
});

describe('core/fold/check', () => {
  const kinds = (v: { kind: string; index: number }[]) => v.map((x) => `${x.kind}@${x.index}`);

  it('accepts a layout that keeps calls with results, pending calls and instructions', () => {
    const t = transcript([
      { role: 'instructions' },
      { role: 'user' },
      { role: 'assistant', calls: ['a', 'b'] },
      { role: 'tool', answers: 'b' },
      { role: 'tool', answers: 'a' },
      { role: 'user' },
      { role: 'assistant', calls: ['p'] },
    ]);
    assert.deepEqual(checkFoldResult({ transcript: t, plan: layout(t, 5) }), []);
    assert.deepEqual(checkFoldResult({ transcript: t, plan: layout(t, 2) }), []);
  });

  it('reports a parallel call whose second result was kept while the call was folded', () => {
    const t = transcript([
      { role: 'user' },
      { role: 'assistant', calls: ['a', 'b'] },
      { role: 'tool', answers: 'a' },
      { role: 'tool', answers: 'b' },
      { role: 'user' },
    ]);
    assert.deepEqual(kinds(checkFoldResult({ transcript: t, plan: layout(t, 3) })), ['call-split@3']);
  });

  it('pairs reused call ids by position, not by id', () => {
    const t = transcript([
      { role: 'assistant', calls: ['x'] },
      { role: 'tool', answers: 'x' },
      { role: 'assistant', calls: ['x'] },
      { role: 'tool', answers: 'x' },
    ]);
    assert.deepEqual(checkFoldResult({ transcript: t, plan: layout(t, 2) }), []);
    assert.deepEqual(kinds(checkFoldResult({ transcript: t, plan: layout(t, 3) })), ['call-split@3']);
  });

  it('reports a folded pending call', () => {
    const t = transcript([{ role: 'user' }, { role: 'assistant', calls: ['p'] }, { role: 'user' }, { role: 'user' }]);
    assert.deepEqual(kinds(checkFoldResult({ transcript: t, plan: layout(t, 2) })), ['pending-call-folded@1']);
  });

  it('reports a dropped instructions item and a non-instructions item placed before the summary', () => {
    const t = transcript([{ role: 'instructions' }, { role: 'user' }, { role: 'assistant' }, { role: 'user' }]);
    const dropped = { fold: true, instructions: [], pinned: [], tail: [2, 3] };
    assert.deepEqual(kinds(checkFoldResult({ transcript: t, plan: dropped })), ['instructions-dropped@0']);
    const misplaced = { fold: true, instructions: [1, 0], pinned: [], tail: [2, 3] };
    assert.deepEqual(kinds(checkFoldResult({ transcript: t, plan: misplaced })), [
      'instructions-not-first@1',
      'instructions-not-first@0',
    ]);
  });

  it('reports a pinned result placed before its call', () => {
    const t = transcript([{ role: 'user' }, { role: 'assistant', calls: ['a'] }, { role: 'tool', answers: 'a' }]);
    const plan = { fold: true, instructions: [], pinned: [2], tail: [1] };
    assert.deepEqual(kinds(checkFoldResult({ transcript: t, plan })), ['result-before-call@2']);
  });

  it('reports reasoning cut away from the call it leads into', () => {
    const t = transcript([
      { role: 'user' },
      { role: 'reasoning' },
      { role: 'reasoning' },
      { role: 'assistant', calls: ['a'] },
      { role: 'tool', answers: 'a' },
      { role: 'user' },
    ]);
    assert.deepEqual(kinds(checkFoldResult({ transcript: t, plan: layout(t, 3) })), [
      'reasoning-split@1',
      'reasoning-split@2',
    ]);
    assert.deepEqual(checkFoldResult({ transcript: t, plan: layout(t, 1) }), []);
  });

  it('reports indices out of range or named twice', () => {
    const t = transcript([{ role: 'user' }, { role: 'assistant' }]);
    const plan = { fold: true, instructions: [], pinned: [1], tail: [1, 7] };
    assert.deepEqual(kinds(checkFoldResult({ transcript: t, plan })), ['bad-index@1', 'bad-index@7']);
  });
});

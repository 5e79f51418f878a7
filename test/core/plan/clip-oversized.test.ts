import { strict as assert } from 'node:assert';
import { normalize } from '../../../src/core/messages/normalize';
import { clipItem, clipMarker, clipOversized } from '../../../src/core/plan/clip-oversized';
import { chatAdapter } from '../../../src/core/messages/chat';
import { calls, result, sys, user } from './fixtures';

describe('clipping oversized items', () => {
  const big = 'H'.repeat(5000) + 'M'.repeat(30_000) + 'T'.repeat(5000);
  const msgs = [sys('S'.repeat(40_000)), user('q'), calls('cat'), result('cat', big)];
  const t = normalize(msgs);
  const tokens = [10_000, 5, 20, 10_000];

  it('clips an item over clipRatio × budget head-and-tail with a marker naming the cut and the archive', () => {
    const out = clipOversized({ transcript: t, tokens, budget: 8000, archiveRef: (i) => `archive:conv-1#${i + 100}` });
    assert.equal(out.length, 1, 'instructions are never clipped');
    const r = out[0]!;
    assert.equal(r.index, 3);
    const text = (r.raw as { content: string }).content;
    assert.ok(text.startsWith('HHHH'));
    assert.ok(text.endsWith('TTTT'));
    assert.ok(text.length < big.length / 2);
    assert.ok(text.includes(`${r.cutChars} characters`));
    assert.ok(text.includes(`about ${r.cutTokens} tokens`));
    assert.ok(text.includes('archive:conv-1#103'));
    const marker = clipMarker(r.cutChars, r.cutTokens, 'archive:conv-1#103');
    const head = text.indexOf(marker);
    assert.ok(head > 0);
    assert.equal(text, big.slice(0, head) + marker + big.slice(head + r.cutChars), 'head + marker + end, nothing else');
    // The kept text fits the limit at the item's own chars-per-token rate.
    const keptChars = big.length - r.cutChars;
    assert.ok((keptChars / big.length) * 10_000 <= 4000);
    assert.equal((msgs[3] as { content: string }).content, big, 'the original is untouched');
    assert.equal((r.raw as { tool_call_id: string }).tool_call_id, 'cat');
  });

  it('leaves items at or under the limit alone', () => {
    assert.deepEqual(clipOversized({ transcript: t, tokens, budget: 20_000, archiveRef: () => 'x' }), []);
  });

  it('does not split a surrogate pair', () => {
    const emoji = '😀'.repeat(10_000);
    const item = normalize([user(emoji)]).items[0]!;
    const r = clipItem(item, 10_000, 1000, 'archive:a#1', chatAdapter)!;
    const text = (r.raw as { content: string }).content;
    assert.ok(!/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(text));
  });

  it('gives up when the text is too short to matter (tokens are elsewhere)', () => {
    const item = normalize([user('short')]).items[0]!;
    assert.equal(clipItem(item, 10_000, 100, 'x', chatAdapter), undefined);
  });

  it('clips a Responses call output and a typed activity in their own fields', () => {
    const long = 'x'.repeat(20_000);
    const r = normalize([
      { role: 'user', content: 'q' },
      { type: 'function_call', call_id: 'a', name: 'cat', arguments: '{}' },
      { type: 'function_call_output', call_id: 'a', output: long, status: 'completed' },
    ]);
    const [rc] = clipOversized({ transcript: r, tokens: [5, 5, 5000], budget: 2000, archiveRef: () => 'archive:r#2' });
    const out = rc!.raw as { output: string; status: string; call_id: string };
    assert.ok(out.output.length < long.length && out.output.includes('archive:r#2'));
    assert.equal(out.status, 'completed');
    assert.equal(out.call_id, 'a');
    const s0 = normalize([{ type: 'activity', text: long, payload: '{"tool":"cat"}' }]);
    const [sc] = clipOversized({ transcript: s0, tokens: [5000], budget: 2000, archiveRef: () => 'archive:s#0' });
    const act = sc!.raw as { text: string; payload: string };
    assert.ok(act.text.length < long.length && act.text.includes('archive:s#0'));
    assert.equal(act.payload, '{"tool":"cat"}');
  });
});

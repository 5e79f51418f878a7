import { strict as assert } from 'node:assert';
import { orderToolResults, prepareForSend } from '../../../src/core/messages/send';
import { TranscriptValidationError } from '../../../src/core/messages/validate';
import { normalize } from '../../../src/core/messages/normalize';
import { planFold } from '../../../src/core/plan/plan';

const call = (id: string) => ({ id, type: 'function', function: { name: `t_${id}`, arguments: '{}' } });
const asst = (...ids: string[]) => ({ role: 'assistant', content: null, tool_calls: ids.map(call) });
const tool = (id: string) => ({ role: 'tool', tool_call_id: id, content: `out ${id}` });
const say = (text: string) => ({ role: 'assistant', content: text });
const ids = (msgs: readonly unknown[]) =>
  msgs.map((m) => {
    const r = m as Record<string, unknown>;
    return r.role === 'tool' ? `tool:${String(r.tool_call_id)}` : String(r.role);
  });

describe('send-time normalisation (seed 003 orderToolMessages, Codex not-run results)', () => {
  it('TestOrderToolMessages_ReordersToToolCallOrder', () => {
    const msgs = [{ role: 'user', content: 'q' }, asst('a', 'b', 'c'), tool('c'), tool('a'), tool('b')];
    assert.deepEqual(ids(orderToolResults(msgs)), ['user', 'assistant', 'tool:a', 'tool:b', 'tool:c']);
  });

  it('TestOrderToolMessages_Idempotent', () => {
    const msgs = [asst('a', 'b', 'c'), tool('b'), tool('c'), tool('a'), { role: 'assistant', content: 'ok' }];
    const once = orderToolResults(msgs);
    const twice = orderToolResults(once);
    assert.deepEqual(twice, once);
    assert.equal(twice, once, 'an ordered transcript comes back as the same array');
  });

  it('TestOrderToolMessages_KeepsUnmatchedTool', () => {
    const msgs = [asst('a', 'b'), tool('x'), tool('b'), tool('a')];
    assert.deepEqual(ids(orderToolResults(msgs)), ['assistant', 'tool:a', 'tool:b', 'tool:x']);
  });

  it('TestOrderToolMessages_FastPathReusesSlice', () => {
    const msgs = [asst('a', 'b'), tool('a'), tool('b')];
    assert.equal(orderToolResults(msgs), msgs);
  });

  it('TestTruncatePersistsSortedOrder', () => {
    const msgs = [
      { role: 'user', content: 'r1' },
      say('a1'),
      { role: 'user', content: 'r2' },
      asst('a', 'b'),
      tool('b'),
      tool('a'),
      say('a2'),
      { role: 'user', content: 'r3' },
      say('a3'),
    ];
    const t = normalize(msgs);
    const p = planFold({
      transcript: t,
      tokens: msgs.map(() => 1),
      options: { budget: 1, policy: 'rounds', maxRounds: 2, roundsMode: 'truncate' },
    });
    assert.equal(p.kind, 'truncate');
    assert.deepEqual(p.dropped, [0, 1]);
    const sent = prepareForSend(p.keep.map((i) => msgs[i]));
    assert.deepEqual(ids(sent), ['user', 'assistant', 'tool:a', 'tool:b', 'assistant', 'user', 'assistant']);
  });

  it('TestGetMessages_ReloadStable', () => {
    const msgs = [{ role: 'user', content: 'q' }, asst('a', 'b', 'c'), tool('c'), tool('b'), tool('a'), say('done')];
    const first = prepareForSend(msgs);
    const reloaded = prepareForSend(JSON.parse(JSON.stringify(first)) as unknown[]);
    assert.deepEqual(reloaded, first);
    assert.deepEqual(prepareForSend(first), first);
  });

  it('orders each result block separately and pairs reused ids by position', () => {
    const msgs = [
      asst('a', 'b'),
      tool('b'),
      tool('a'),
      { role: 'user', content: 'next' },
      asst('b', 'a'),
      tool('a'),
      tool('b'),
    ];
    assert.deepEqual(ids(orderToolResults(msgs)), [
      'assistant',
      'tool:a',
      'tool:b',
      'user',
      'assistant',
      'tool:b',
      'tool:a',
    ]);
  });

  it('orders Responses outputs after parallel function_call items', () => {
    const items = [
      { type: 'function_call', call_id: 'a', name: 'f', arguments: '{}' },
      { type: 'function_call', call_id: 'b', name: 'g', arguments: '{}' },
      { type: 'function_call_output', call_id: 'b', output: '2' },
      { type: 'function_call_output', call_id: 'a', output: '1' },
    ];
    const out = orderToolResults(items);
    assert.deepEqual(
      out.map((i) => i.call_id),
      ['a', 'b', 'a', 'b']
    );
  });

  describe('unanswered calls', () => {
    const pending = [{ role: 'user', content: 'q' }, asst('a', 'b'), tool('b')];

    it("throws a validation error naming the call with unanswered: 'error' (the default)", () => {
      assert.throws(
        () => prepareForSend(pending),
        (e: unknown) =>
          e instanceof TranscriptValidationError &&
          e.kind === 'unanswered-call' &&
          e.index === 1 &&
          /'a'/.test(e.message)
      );
    });

    it("synthesises a deterministic not-run result in call order with unanswered: 'synthesize'", () => {
      const out = prepareForSend(pending, { unanswered: 'synthesize' });
      assert.deepEqual(ids(out), ['user', 'assistant', 'tool:a', 'tool:b']);
      assert.deepEqual(prepareForSend(pending, { unanswered: 'synthesize' }), out, 'deterministic');
      assert.match(String((out[2] as { content: string }).content), /not run/i);
      // The result is a valid transcript with every call answered.
      const t = normalize(out);
      assert.ok(t.items.filter((i) => i.role === 'tool').every((i) => i.answers));
    });

    it('puts a not-run result for a Responses call after the parallel call items', () => {
      const items = [
        { type: 'function_call', call_id: 'a', name: 'f', arguments: '{}' },
        { type: 'function_call', call_id: 'b', name: 'g', arguments: '{}' },
        { type: 'function_call_output', call_id: 'b', output: '2' },
        { role: 'user', content: 'more' },
      ];
      const out = prepareForSend(items, { format: 'responses', unanswered: 'synthesize' }) as Record<
        string,
        string | undefined
      >[];
      assert.deepEqual(
        out.map((i) => `${i.type ?? i.role}:${i.call_id ?? ''}`),
        ['function_call:a', 'function_call:b', 'function_call_output:a', 'function_call_output:b', 'user:']
      );
    });

    it('leaves a complete, ordered transcript as it is', () => {
      const done = [{ role: 'user', content: 'q' }, asst('a'), tool('a')];
      assert.deepEqual(prepareForSend(done), done);
    });
  });
});

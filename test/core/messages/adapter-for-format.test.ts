import { strict as assert } from 'node:assert';
import { adapterFor } from '../../../src/core/messages/adapter-for-format';
import { chatAdapter } from '../../../src/core/messages/chat';
import { responsesAdapter } from '../../../src/core/messages/responses';
import { typedMessagesAdapter } from '../../../src/core/messages/typed-messages';
import { normalize, denormalize } from '../../../src/core/messages/normalize';
import { SUMMARY_MARKER } from '../../../src/core/messages/summary-marker';
import { TranscriptValidationError } from '../../../src/core/messages/validate';

describe('format adapters', () => {
  describe('chat', () => {
    it('keeps unknown fields and non-text parts when replacing text', () => {
      const raw = {
        role: 'user',
        content: [
          { type: 'text', text: 'a' },
          { type: 'image_url', image_url: { url: 'x' } },
          { type: 'text', text: 'b' },
        ],
        x_extra: 1,
      };
      const out = chatAdapter.withText(raw, 'new');
      assert.deepEqual(out, {
        role: 'user',
        content: [
          { type: 'text', text: 'new' },
          { type: 'image_url', image_url: { url: 'x' } },
        ],
        x_extra: 1,
      });
      assert.equal(raw.content.length, 3, 'input not mutated');
    });
    it('replaces a tool output and writes a not-run result for a call', () => {
      assert.deepEqual(chatAdapter.withToolOutput({ role: 'tool', tool_call_id: 'a', content: 'long' }, 'short'), {
        role: 'tool',
        tool_call_id: 'a',
        content: 'short',
      });
      const r = chatAdapter.notRunResult({ id: 'a', name: 'bash', arguments: '{}' });
      assert.equal(r.role, 'tool');
      assert.equal(r.tool_call_id, 'a');
      assert.match(String(r.content), /not run.*bash/i);
    });
    it('writes a summary that normalises back as role summary', () => {
      const s = chatAdapter.summaryItem('facts', { droppedCount: 3, summarizedIds: [] });
      assert.ok(String(s.content).startsWith(SUMMARY_MARKER));
      assert.ok(String(s.content).endsWith('facts'));
      assert.equal(chatAdapter.toItem(s, 0).role, 'summary');
    });
    it('passes the legacy function role through as other', () => {
      assert.equal(chatAdapter.toItem({ role: 'function', name: 'f', content: 'x' }, 0).role, 'other');
    });
  });

  describe('responses', () => {
    const items = [
      { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'rules' }] },
      { role: 'user', content: 'hi', id: 'u1' },
      { type: 'reasoning', id: 'r1', summary: [{ type: 'summary_text', text: 'think' }], encrypted_content: 'zz' },
      { type: 'function_call', call_id: 'c1', name: 'f', arguments: '{}', id: 'fc1' },
      { type: 'function_call_output', call_id: 'c1', output: 'ok' },
      { type: 'custom_tool_call', call_id: 'c2', name: 'patch', input: 'diff' },
      { type: 'custom_tool_call_output', call_id: 'c2', output: 'applied' },
      { type: 'web_search_call', id: 'ws', status: 'completed' },
      { type: 'compaction', encrypted_content: 'blob' },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'done', annotations: [] }] },
    ];
    it('maps every item type to its role and pairs the calls', () => {
      const t = normalize(items);
      assert.equal(t.format, 'responses');
      assert.deepEqual(
        t.items.map((i) => i.role),
        ['instructions', 'user', 'reasoning', 'assistant', 'tool', 'assistant', 'tool', 'other', 'summary', 'assistant']
      );
      assert.equal(t.items[2]!.text, 'think');
      assert.equal(t.items[4]!.answers!.itemIndex, 3);
      assert.equal(t.items[6]!.answers!.itemIndex, 5);
      assert.equal(t.items[5]!.calls[0]!.kind, 'custom_tool_call');
      assert.deepEqual(denormalize(t), items);
    });
    it('writes not-run results in the type matching the call', () => {
      assert.equal(
        responsesAdapter.notRunResult({ id: 'c', name: 'f', arguments: '', kind: 'function_call' }).type,
        'function_call_output'
      );
      assert.equal(
        responsesAdapter.notRunResult({ id: 'c', name: 'p', arguments: '', kind: 'custom_tool_call' }).type,
        'custom_tool_call_output'
      );
    });
    it('rejects non-string function arguments and unknown message roles', () => {
      assert.throws(
        () => responsesAdapter.toItem({ type: 'function_call', call_id: 'c', name: 'f', arguments: {} }, 3),
        (e: unknown) => e instanceof TranscriptValidationError && e.kind === 'arguments-not-string' && e.index === 3
      );
      assert.throws(
        () => responsesAdapter.toItem({ type: 'message', role: 'robot', content: 'x' }, 0),
        TranscriptValidationError
      );
    });
    it('replaces a tool output and a message text', () => {
      assert.deepEqual(
        responsesAdapter.withToolOutput({ type: 'function_call_output', call_id: 'c', output: 'x' }, 'y'),
        { type: 'function_call_output', call_id: 'c', output: 'y' }
      );
      assert.deepEqual(responsesAdapter.withText(items[9]!, 'z'), {
        type: 'message',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'z', annotations: [] }],
      });
    });
  });

  describe('typed', () => {
    it('maps typed-message types, reads compacted context as a summary and keeps ids', () => {
      const msgs = [
        { type: 'instructions', text: 'sys' },
        { type: 'context', text: 'old', meta: { compacted: true, droppedCount: 2 } },
        { type: 'context', text: 'note' },
        { id: 'u', type: 'user', text: 'hi' },
        { type: 'bot', text: 'yo' },
        { type: 'activity', text: 'ran', payload: '{"a":1}' },
        { type: 'reasoning', text: 'r' },
        { type: 'mystery', text: 'm', extra: true },
      ];
      const t = normalize(msgs);
      assert.equal(t.format, 'typed');
      assert.deepEqual(
        t.items.map((i) => i.role),
        ['instructions', 'summary', 'user', 'user', 'assistant', 'activity', 'reasoning', 'other']
      );
      assert.deepEqual(
        t.items.map((i) => i.turnStart),
        [false, false, false, true, false, false, false, false]
      );
      assert.equal(t.items[3]!.id, 'u');
      assert.deepEqual(denormalize(t), msgs);
    });
    it("writes seed 000's summary message exactly", () => {
      assert.deepEqual(
        typedMessagesAdapter.summaryItem('  \n trimmed \n  ', { droppedCount: 3, summarizedIds: ['id-1', 'id-2'] }),
        {
          type: 'context',
          text: '[Conversation summary - 3 earlier message(s) condensed]\n\ntrimmed',
          meta: { compacted: true, droppedCount: 3, summarizedIds: ['id-1', 'id-2'] },
        }
      );
      assert.deepEqual(typedMessagesAdapter.summaryItem('x', { droppedCount: 1, summarizedIds: [] }).meta, {
        compacted: true,
        droppedCount: 1,
      });
    });
    it('rejects a missing type and a non-string text', () => {
      assert.throws(
        () => typedMessagesAdapter.toItem({ text: 'x' }, 2),
        (e: unknown) => e instanceof TranscriptValidationError && e.kind === 'missing-role' && e.index === 2
      );
      assert.throws(
        () => typedMessagesAdapter.toItem({ type: 'user', text: 5 }, 0),
        (e: unknown) => e instanceof TranscriptValidationError && e.kind === 'wrong-type'
      );
    });
  });

  it('adapterFor returns each adapter and rejects an unknown format', () => {
    assert.equal(adapterFor('chat'), chatAdapter);
    assert.equal(adapterFor('responses'), responsesAdapter);
    assert.equal(adapterFor('typed'), typedMessagesAdapter);
    assert.throws(() => adapterFor('xml' as never), RangeError);
  });
});

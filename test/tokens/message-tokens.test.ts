import { strict as assert } from 'node:assert';
import { countText, IMAGE_TOKENS, priceMessage, TokenInputError, TOKENS_PER_MESSAGE } from '../../src/tokens';
import type { MessageFormat } from '../../src/core/messages/types';

const count = (t: string): number => countText(t, 'o200k_base');
const total = (raw: unknown, format: MessageFormat): number => {
  const p = priceMessage(raw, format, count);
  return p.envelope + p.role + p.body;
};

describe('priceMessage: chat', () => {
  it('prices 3 + role + content, +1 + name tokens for a name', () => {
    assert.equal(total({ role: 'user', content: 'hello there' }, 'chat'), 3 + count('user') + count('hello there'));
    assert.equal(
      total({ role: 'user', name: 'bob', content: 'hi' }, 'chat'),
      3 + 1 + count('user') + count('bob') + count('hi')
    );
  });

  it('prices tool calls by name and arguments, tool results by content, ids not at all', () => {
    const call = { id: 'call_1', type: 'function', function: { name: 'read_file', arguments: '{"path":"a.ts"}' } };
    const assistant = { role: 'assistant', content: null, tool_calls: [call, { ...call, id: 'call_2' }] };
    assert.equal(
      total(assistant, 'chat'),
      3 + count('assistant') + 2 * (count('read_file') + count('{"path":"a.ts"}'))
    );
    const result = { role: 'tool', tool_call_id: 'call_1', content: 'file body' };
    assert.equal(total(result, 'chat'), 3 + count('tool') + count('file body'));
  });

  it('prices multi-part content: text parts by text, images by IMAGE_TOKENS', () => {
    const m = {
      role: 'user',
      content: [
        { type: 'text', text: 'look at' },
        { type: 'image_url', image_url: { url: 'data:image/png;base64,' + 'A'.repeat(5000) } },
        { type: 'text', text: 'this' },
      ],
    };
    assert.equal(total(m, 'chat'), 3 + count('user') + count('look at') + IMAGE_TOKENS + count('this'));
  });

  it('rejects a message without a role, or tool_calls that are not an array', () => {
    assert.throws(() => priceMessage({ content: 'x' }, 'chat', count), TokenInputError);
    assert.throws(() => priceMessage({ role: 'assistant', tool_calls: {} }, 'chat', count), /tool_calls/);
    assert.throws(() => priceMessage('hello', 'chat', count), /message object/);
  });
});

describe('priceMessage: responses', () => {
  it('prices message items like chat messages (string or input_text parts)', () => {
    const a = total({ role: 'user', content: 'hi' }, 'responses');
    const b = total({ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] }, 'responses');
    assert.equal(a, 3 + count('user') + count('hi'));
    assert.equal(b, a);
  });

  it('prices function_call by name + arguments and function_call_output by output', () => {
    const call = { type: 'function_call', call_id: 'c1', name: 'grep', arguments: '{"q":"TODO"}' };
    assert.equal(total(call, 'responses'), TOKENS_PER_MESSAGE + count('grep') + count('{"q":"TODO"}'));
    const out = { type: 'function_call_output', call_id: 'c1', output: 'src/a.ts:1: TODO' };
    assert.equal(total(out, 'responses'), TOKENS_PER_MESSAGE + count('src/a.ts:1: TODO'));
  });

  it('prices reasoning by its summary text and compaction by its encrypted content', () => {
    const reasoning = {
      type: 'reasoning',
      id: 'rs_1',
      summary: [{ type: 'summary_text', text: 'Thinking about it.' }],
      encrypted_content: 'gAAAA',
    };
    assert.equal(total(reasoning, 'responses'), TOKENS_PER_MESSAGE + count('Thinking about it.'));
    const compaction = { type: 'compaction', id: 'cmp_1', encrypted_content: 'gAAAAABo' + 'x'.repeat(100) };
    assert.equal(total(compaction, 'responses'), TOKENS_PER_MESSAGE + count(compaction.encrypted_content));
  });

  it('prices an unknown item as its rendered JSON', () => {
    const item = { type: 'web_search_call', id: 'ws_1', status: 'completed', action: { query: 'temporal' } };
    assert.equal(total(item, 'responses'), TOKENS_PER_MESSAGE + count(JSON.stringify(item)));
  });
});

describe('priceMessage: s0', () => {
  it('prices type + text, then payload and meta as rendered JSON', () => {
    const plain = { type: 'user', text: 'hello' };
    assert.equal(total(plain, 'typed'), 3 + count('user') + count('hello'));
    const activity = { type: 'activity', text: 'ran ls', payload: '{"cmd":"ls","out":"a b c"}' };
    assert.equal(
      total(activity, 'typed'),
      total({ type: 'activity', text: 'ran ls' }, 'typed') + count(activity.payload)
    );
    const summary = { type: 'context', text: 's', meta: { compacted: true, droppedCount: 5 } };
    assert.equal(total(summary, 'typed'), 3 + count('context') + count('s') + count(JSON.stringify(summary.meta)));
  });

  it('prices a structured payload as its JSON and an empty message as its envelope', () => {
    const structured = { type: 'activity', text: '', payload: { name: 'write', args: { path: 'x' } } };
    assert.equal(total(structured, 'typed'), 3 + count('activity') + count(JSON.stringify(structured.payload)));
    assert.ok(total({ type: 'bot', text: '' }, 'typed') > 0);
  });

  it('rejects an s0 message without a type', () => {
    assert.throws(() => priceMessage({ text: 'x' }, 'typed', count), /type/);
  });
});

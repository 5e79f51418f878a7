// withAbandonedAnswers reads only the new messages when every call of the stored context is answered (the ordinary
// step of a long conversation): the results must be exactly those of reading the whole context, on the corpus and
// on sequences with abandoned, pending and parallel calls, at every split point.
import { strict as assert } from 'node:assert';
import { normalize } from '../../src/core/messages/normalize';
import { answeredCalls } from '../../src/core/messages/pair';
import type { MessageFormat } from '../../src/core/messages/types';
import { withAbandonedAnswers } from '../../src/workflows/conversation/abandoned-calls';
import type { StagedAppend } from '../../src/workflows/conversation/conversation-state';
import { corpusConversations } from '../support/corpus';

const chatCall = (ids: string[]) => ({
  role: 'assistant',
  content: null,
  tool_calls: ids.map((id) => ({ id, type: 'function', function: { name: 'read', arguments: '{}' } })),
});
const chatResult = (id: string) => ({ role: 'tool', tool_call_id: id, content: `result ${id}` });
const respCall = (id: string) => ({ type: 'function_call', call_id: id, name: 'read', arguments: '{}' });
const respResult = (id: string) => ({ type: 'function_call_output', call_id: id, output: `result ${id}` });
const respSay = (role: string, text: string) => ({
  type: 'message',
  role,
  content: [{ type: role === 'user' ? 'input_text' : 'output_text', text }],
});

const synthetic: { format: MessageFormat; messages: unknown[] }[] = [
  {
    // Every call answered until a new append abandons one (the fast path with a result to place).
    format: 'chat',
    messages: [
      { role: 'user', content: 'go' },
      chatCall(['a']),
      chatResult('a'),
      { role: 'assistant', content: 'ok' },
      { role: 'user', content: 'again' },
      chatCall(['x', 'y']),
      chatResult('y'),
      { role: 'user', content: 'never mind' },
    ],
  },
  {
    format: 'responses',
    messages: [
      respSay('user', 'go'),
      respCall('a'),
      respResult('a'),
      respSay('assistant', 'ok'),
      respCall('x'),
      respSay('user', 'never mind'),
    ],
  },
  {
    format: 'chat',
    messages: [
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'go' },
      chatCall(['a']),
      chatResult('a'),
      chatCall(['b', 'c']), // c is never answered: abandoned by the next user turn
      chatResult('b'),
      { role: 'user', content: 'next' },
      chatCall(['d']),
      { role: 'assistant', content: 'moved on' }, // d abandoned by a later assistant turn
      { role: 'user', content: 'more' },
      chatCall(['e']),
      chatResult('e'),
      { role: 'assistant', content: 'done' },
      chatCall(['f']), // pending at the end
    ],
  },
  {
    format: 'responses',
    messages: [
      respSay('user', 'go'),
      respCall('a'),
      respResult('a'),
      respCall('b'),
      respCall('c'),
      respResult('b'),
      respSay('assistant', 'partial'),
      respSay('user', 'next'),
      respCall('d'),
      respSay('assistant', 'moved on'),
      respSay('user', 'more'),
      respCall('e'),
    ],
  },
];

function staged(messages: unknown[], format: MessageFormat, firstSeq: number): StagedAppend {
  return {
    messages,
    sentIndex: messages.map((_, i) => i),
    firstSeq,
    format,
    mirror: { live: [], length: 0, sent: [] },
    baseVersion: 0,
  };
}

describe('withAbandonedAnswers reading only the new messages', () => {
  const corpus = corpusConversations().map(({ messages }) => ({ format: 'chat' as const, messages }));
  const cases: { format: MessageFormat; messages: unknown[] }[] = [...synthetic, ...corpus];
  it('gives what reading the whole context gives, at every split point', () => {
    const seen = { fastPath: 0, slowPath: 0, fastWithResults: 0 };
    for (const { format, messages } of cases) {
      for (let k = 1; k < messages.length; k++) {
        const live = messages.slice(0, k);
        const items = normalize(live, format, { stored: true }).items;
        const open = items.reduce((n, i) => n + i.calls.length, 0) - answeredCalls(items).size;
        for (const size of [1, 3]) {
          const append = staged(messages.slice(k, k + size), format, k);
          const entries = live.map((raw) => ({ raw }));
          const whole = withAbandonedAnswers(entries, append);
          assert.deepEqual(withAbandonedAnswers(entries, append, items), whole, `split ${k}, ${size} new`);
          seen[open === 0 ? 'fastPath' : 'slowPath']++;
          if (open === 0 && whole.staged !== append) seen.fastWithResults++;
        }
      }
    }
    assert.ok(seen.fastPath > 100 && seen.slowPath > 5 && seen.fastWithResults >= 4, JSON.stringify(seen));
  });
});

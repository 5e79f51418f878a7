import { strict as assert } from 'node:assert';
import { abandonedCallResults } from '../../../src/core/messages/abandoned-calls';
import { normalize } from '../../../src/core/messages/normalize';
import { safeCuts } from '../../../src/core/plan/safe-cut';

const call = (id: string) => ({ id, type: 'function', function: { name: `t_${id}`, arguments: '{}' } });
const asst = (...ids: string[]) => ({ role: 'assistant', content: null, tool_calls: ids.map(call) });
const tool = (id: string) => ({ role: 'tool', tool_call_id: id, content: `out ${id}` });
const say = (text: string) => ({ role: 'assistant', content: text });
const user = (text: string) => ({ role: 'user', content: text });
const fnCall = (id: string) => ({ type: 'function_call', call_id: id, name: `t_${id}`, arguments: '{}' });
const fnOut = (id: string) => ({ type: 'function_call_output', call_id: id, output: `out ${id}` });
const reasoning = { type: 'reasoning', summary: [{ type: 'summary_text', text: 'thinking' }] };
const rUser = (text: string) => ({ type: 'message', role: 'user', content: [{ type: 'input_text', text }] });
const rSay = (text: string) => ({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] });

/** The messages with the results inserted where they belong. */
function withResults(messages: unknown[], format: 'chat' | 'responses', appendedFrom?: number): unknown[] {
  const results = abandonedCallResults(messages, format, appendedFrom);
  const out: unknown[] = [];
  messages.forEach((m, i) => {
    for (const r of results) if (r.at === i) out.push(r.raw);
    out.push(m);
  });
  return out;
}

describe('abandoned tool calls', () => {
  it('a call is pending while it is the latest open work: nothing is written', () => {
    assert.deepEqual(abandonedCallResults([user('q'), asst('a')], 'chat'), []);
    assert.deepEqual(abandonedCallResults([user('q'), asst('a', 'b'), tool('a')], 'chat'), []);
    assert.deepEqual(abandonedCallResults([rUser('q'), fnCall('a'), reasoning], 'responses'), []);
  });

  it('a later user turn abandons every unanswered call before it, results placed after the answered ones', () => {
    const msgs = [user('q'), asst('a', 'b', 'c'), tool('b'), user('stop')];
    const out = withResults(msgs, 'chat');
    assert.deepEqual(out.slice(0, 3), msgs.slice(0, 3));
    assert.equal((out[3] as { tool_call_id: string }).tool_call_id, 'a');
    assert.equal((out[4] as { tool_call_id: string }).tool_call_id, 'c');
    assert.match((out[3] as { content: string }).content, /^\[not run\] The call to t_a \(a\)/);
    assert.deepEqual(out[5], user('stop'));
  });

  it('chat: a later assistant message abandons the call', () => {
    const out = withResults([user('q'), asst('a'), say('never mind')], 'chat');
    assert.equal((out[2] as { tool_call_id: string }).tool_call_id, 'a');
  });

  it('responses: an assistant item of the same response does not, one of a later append or after a result does', () => {
    assert.deepEqual(
      abandonedCallResults([rUser('q'), rSay('let me look'), fnCall('a'), fnCall('b')], 'responses'),
      []
    );
    assert.deepEqual(abandonedCallResults([rUser('q'), fnCall('a'), rSay('and text')], 'responses', 3), []);
    const later = withResults([rUser('q'), fnCall('a'), rSay('and text')], 'responses', 2);
    assert.equal((later[2] as { call_id: string }).call_id, 'a');
    const asked = withResults([rUser('q'), fnCall('a'), fnCall('b'), fnOut('a'), reasoning, fnCall('c')], 'responses');
    assert.deepEqual(
      asked.map((m) => (m as { type: string }).type),
      [
        'message',
        'function_call',
        'function_call',
        'function_call_output',
        'function_call_output',
        'reasoning',
        'function_call',
      ],
      'the result of b goes after the results, before the reasoning that opens the next turn'
    );
    assert.equal((asked[4] as { call_id: string }).call_id, 'b');
  });

  it('with the results in place, cuts after the abandoned call are safe again (it folds like any pair)', () => {
    const msgs = [user('q1'), asst('a'), user('q2'), say('ok'), user('q3'), say('ok')];
    assert.equal(safeCuts(normalize(msgs).items).slice(2).some(Boolean), false, 'blocked without the result');
    const fixed = withResults(msgs, 'chat');
    const safe = safeCuts(normalize(fixed).items);
    assert.equal(safe[3], true, 'a cut right after the synthetic result');
    assert.equal(safe[5], true);
  });
});

import { strict as assert } from 'node:assert';
import { normalize } from '../../src/core/messages/normalize';
import { ConversationState } from '../../src/workflows/conversation-state';
import { defaultSettings } from '../../src/contract/settings';
import { corpusConversation } from '../support/corpus';

const fresh = (): ConversationState => ConversationState.create('state-test', defaultSettings);
const counts = (n: number): number[] => Array.from({ length: n }, () => 5);

describe('ConversationState transcript', () => {
  it('after every append equals normalising the live raws (validator and handler staged, as the workflow does)', () => {
    const { messages } = corpusConversation('tau2-bench-gpt41-airline-task18');
    const state = fresh();
    for (let i = 0; i < messages.length; i += 2) {
      const input = { messages: messages.slice(i, i + 2) };
      state.stage(input); // the update validator
      const staged = state.stage(input); // the handler
      state.commitAppend(staged, counts(staged.messages.length), [], undefined);
      const t = state.transcript();
      assert.deepEqual(t, normalize(state.raws(), 'chat'), `after message ${i}`);
      t.items.forEach((item, k) => assert.equal(item.raw, state.carried.live[k]!.raw));
    }
    assert.equal(state.carried.live.length, messages.length);
  });

  it('holds the clipped version of a message, and stays right when another append was staged in between', () => {
    const state = fresh();
    const first = state.stage({ messages: [{ role: 'system', content: 'Be brief.' }] });
    state.commitAppend(first, [4], [], undefined);
    const big = { role: 'user', content: 'x'.repeat(1000) };
    const clipped = { role: 'user', content: 'x… (clipped)' };
    state.commitAppend(state.stage({ messages: [big] }), [300], [{ index: 0, raw: clipped, tokens: 5 }], undefined);
    assert.equal(state.transcript().items[1]!.raw, clipped);
    assert.deepEqual(state.transcript(), normalize(state.raws(), 'chat'));
    // A validator of another update runs while this handler awaits its ingest.
    const mine = state.stage({ messages: [{ role: 'assistant', content: 'mine' }] });
    state.stage({ messages: [{ role: 'user', content: 'theirs' }] });
    state.commitAppend(mine, [3], [], undefined);
    assert.deepEqual(
      state.transcript().items.map((i) => i.raw),
      state.raws()
    );
    assert.deepEqual(state.transcript(), normalize(state.raws(), 'chat'));
  });

  it('rejects a result without its call, naming the message of this append, and changes nothing', () => {
    const state = fresh();
    state.commitAppend(state.stage({ messages: [{ role: 'user', content: 'hi' }] }), [3], [], undefined);
    const before = state.transcript();
    assert.throws(
      () =>
        state.stage({
          messages: [
            { role: 'user', content: 'a' },
            { role: 'tool', tool_call_id: 'q', content: 'r' },
          ],
        }),
      /message 1 of this append: tool result for call id 'q'/
    );
    assert.equal(state.carried.version, 1);
    assert.equal(state.transcript(), before);
  });
});

import { strict as assert } from 'node:assert';
import type { Prepared } from '../../src/client/conversation-client';
import { withConversationWorker, uniqueConversationId } from '../support/conversation';
import { corpusConversation } from '../support/corpus';
import { driveConversation } from '../support/drive';

describe('one round trip per agent step', function () {
  this.timeout(300_000);

  it('prepare with the output gives the contexts of record + prepare, and reports prefix reuse', async () => {
    const { messages } = corpusConversation('tau2-bench-gpt41-airline-task18');
    await withConversationWorker(async ({ open }) => {
      const settings = { budget: 8_000 };
      const two = await driveConversation(
        open(uniqueConversationId('two-trips'), settings),
        messages,
        () => {},
        'record'
      );
      const oneConv = open(uniqueConversationId('one-trip'), settings);
      const one = await driveConversation(oneConv, messages, () => {}, 'output');
      // When the session ends on an assistant message, the one-trip loop has one more step that hands it back.
      const endsOnOutput = (messages[messages.length - 1] as { role: string }).role === 'assistant';
      assert.equal(one.length, two.length + (endsOnOutput ? 1 : 0));
      two.forEach((p, i) => assert.deepEqual(one[i]!.messages, p.messages, `context of step ${i}`));
      assert.deepEqual(
        one.slice(0, two.length).map((p) => p.fold?.ok ?? null),
        two.map((p) => p.fold?.ok ?? null)
      );
      const folds = one.filter((p) => p.fold?.ok).length;
      assert.ok(folds >= 1, 'the session folds at 8k');
      checkPrefixReuse(one);
      const state = await oneConv.state();
      assert.equal(state.archived, messages.length);
    });
  });

  it('takes one message or an array as the output, before the new messages', async () => {
    await withConversationWorker(async ({ open }) => {
      const conv = open(uniqueConversationId('output-forms'));
      const system = { role: 'system', content: 'Be brief.' };
      const first = await conv.prepare([system, { role: 'user', content: 'hi' }]);
      assert.deepEqual(first.prefix, { messages: 0, tokens: 0, contextTokens: first.prefix!.contextTokens });
      const reply = { role: 'assistant', content: 'hello' };
      const second = await conv.prepare([{ role: 'user', content: 'and?' }], { output: reply });
      assert.deepEqual(second.messages.slice(2), [reply, { role: 'user', content: 'and?' }]);
      const third = await conv.prepare([], { output: [{ role: 'assistant', content: 'done' }] });
      assert.equal(third.messages.length, 5);
      assert.equal(third.prefix!.messages, 4);
      assert.equal((await conv.state()).archived, 5);
    });
  });
});

/**
 * Without a fold, a context repeats the previous one whole (append-only between folds: what a prompt cache reuses);
 * a fold keeps only the instructions as the shared prefix (the summary replaces what followed them).
 */
function checkPrefixReuse(steps: Prepared[]): void {
  steps.forEach((p, i) => {
    const prefix = p.prefix;
    assert.ok(prefix, `step ${i} reports prefix reuse`);
    assert.ok(prefix.tokens <= prefix.contextTokens && prefix.contextTokens > 0);
    if (i === 0) return assert.equal(prefix.messages, 0);
    const previous = steps[i - 1]!.messages.length;
    if (p.fold?.ok) {
      assert.equal(prefix.messages, 1, `step ${i}: a fold keeps the system message as the prefix`);
    } else {
      assert.equal(prefix.messages, previous, `step ${i}: the whole previous context is reused`);
      assert.deepEqual(p.messages.slice(0, previous), steps[i - 1]!.messages);
    }
  });
}

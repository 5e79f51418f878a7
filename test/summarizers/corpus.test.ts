import assert from 'node:assert/strict';
import { collectIdentifiers } from '../../src/core/fold/identifiers';
import { normalize } from '../../src/core/messages/normalize';
import { planFold } from '../../src/core/plan/plan';
import { createSummarizer } from '../../src/summarizers';
import { createTokenCounter } from '../../src/tokens';
import { corpusConversations } from '../support/corpus';

// Every corpus session (parallel calls, reused call ids, a 167k-character tool result, tau-bench codes) folds with the
// default summarizer into a summary smaller than its head that keeps the user's own identifiers.
describe('extractive summarizer on every corpus conversation', () => {
  const counter = createTokenCounter({ model: 'gpt-4o' });
  for (const { name, messages } of corpusConversations()) {
    it(name, async () => {
      const transcript = normalize(messages, 'chat');
      const tokens = counter.countMessages(messages, 'chat');
      const budget = tokens.reduce((a, b) => a + b, 0);
      const plan = planFold({ transcript, tokens, options: { budget } });
      if (!plan.fold) return assert.fail(`no fold: ${plan.reason}`);
      const head = plan.summarize.map((i) => messages[i]);
      const res = await createSummarizer(
        {},
        { counterFor: () => counter }
      )({
        format: 'chat',
        messages: head,
        budget,
        model: 'gpt-4o',
        foldedTokens: plan.foldedTokens,
      });
      assert.ok(res.ok, JSON.stringify(res));
      assert.ok(res.summaryTokens < plan.foldedTokens);
      assert.equal(counter.countText(res.text ?? ''), res.summaryTokens);
      const userIds = collectIdentifiers(normalize(head, 'chat').items).filter((i) => i.sources.includes('user'));
      for (const id of userIds) assert.ok(res.text?.includes(id.value), `user identifier ${id.value} dropped`);
    });
  }
});

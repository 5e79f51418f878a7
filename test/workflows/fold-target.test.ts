import { strict as assert } from 'node:assert';
import { NEW_CONVERSATION_RESERVE, NEW_CONVERSATION_TARGET_RATIO } from '../../src/contract/fold-target';
import { createTokenCounter } from '../../src/tokens';
import { corpusConversation } from '../support/corpus';
import { driveConversation } from '../support/drive';
import { uniqueConversationId, withConversationWorker } from '../support/conversation';

const counter = createTokenCounter({ model: 'gpt-4o' });

describe('the fold target of a new conversation', function () {
  this.timeout(300_000);

  it('folds less often than at half the budget and records what each fold does to the prompt cache', async () => {
    const { messages } = corpusConversation('mini-swe-agent-deepseek-django__django-11797');
    const budget = 16_000;
    const sessionTokens = counter.countMessages(messages, 'chat').reduce((a, b) => a + b, 0);
    await withConversationWorker(async ({ open }) => {
      const fresh = open(uniqueConversationId('fold-target'), { budget });
      const halfway = open(uniqueConversationId('fold-target-half'), { budget, plan: { targetRatio: 0.5 } });
      await driveConversation(fresh, messages);
      await driveConversation(halfway, messages);
      // The worker's defaults gave the new conversation the target; explicit settings still win over it.
      assert.equal((await fresh.state()).settings.plan.targetRatio, NEW_CONVERSATION_TARGET_RATIO);
      assert.equal((await halfway.state()).settings.plan.targetRatio, 0.5);
      // The carried summary reserve came with the target; a plan given at start replaces both.
      assert.equal((await fresh.state()).settings.plan.summaryReserve, NEW_CONVERSATION_RESERVE);
      assert.equal((await halfway.state()).settings.plan.summaryReserve, undefined);
      const folds = await fresh.folds();
      const halfwayFolds = await halfway.folds();
      assert.ok(folds.length >= 2, `expected at least two folds, got ${folds.length}`);
      // A fold at the trigger (0.9) lands near the target, so the next one waits for about two thirds of a budget.
      for (const f of folds) {
        assert.ok(f.tokensAfter! <= 0.4 * budget, `fold ${f.number} left ${f.tokensAfter} tokens`);
      }
      assert.ok(
        folds.length <= Math.ceil(sessionTokens / (0.5 * budget)),
        `${folds.length} folds for ${sessionTokens} session tokens`
      );
      assert.ok(
        folds.length < halfwayFolds.length,
        `the lower target folds less often: ${folds.length} vs ${halfwayFolds.length} at half the budget`
      );
      for (const f of folds) {
        assert.equal(f.ok, true, `fold ${f.number} failed: ${f.error?.message}`);
        const cache = f.cache!;
        assert.equal(cache.source, 'estimate');
        // The system prompt stays first, so a fold keeps it cached; the rest of the old context is invalidated.
        assert.ok(cache.cachedTokens > 0, `fold ${f.number} kept nothing cached`);
        assert.equal(cache.cachedTokens + cache.invalidatedTokens, f.tokensBefore);
        assert.equal(cache.cachedTokens + cache.writtenTokens, f.tokensAfter);
      }
    });
  });

  it('starts a conversation whose trigger is below the core target but above the new one, folding to 0.25', async () => {
    const { messages } = corpusConversation('mini-swe-agent-deepseek-django__django-11797');
    const budget = 16_000;
    await withConversationWorker(async ({ open }) => {
      const low = open(uniqueConversationId('fold-target-low'), { budget, triggerRatio: 0.4 });
      await driveConversation(low, messages.slice(0, 40));
      const state = await low.state();
      assert.equal(state.settings.triggerRatio, 0.4);
      assert.equal(state.settings.plan.targetRatio, NEW_CONVERSATION_TARGET_RATIO);
      const folds = await low.folds();
      assert.ok(folds.length >= 1, 'the low trigger folds');
      for (const f of folds) assert.ok(f.tokensAfter! <= 0.4 * budget, `fold ${f.number} left ${f.tokensAfter}`);
    });
  });
});

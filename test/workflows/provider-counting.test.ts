/**
 * Provider counting end to end: a Claude conversation on a worker with provider counts counts its messages with the
 * Anthropic count endpoint (through the `ingest` activity, the real SDK and a local server), so the context's tokens
 * are the provider's numbers, not the offline estimate; a message already counted costs no second call.
 */
import { strict as assert } from 'node:assert';
import { createTokenCounter } from '../../src/tokens';
import { anthropicCountText } from '../../src/tokens/provider-count/endpoints';
import { createProviderCounts } from '../../src/tokens/provider-count/provider-counts';
import { startAnthropicServer, serverTokens } from '../support/anthropic-server';
import { uniqueConversationId, withConversationWorker } from '../support/conversation';

describe('provider counting through the ingest activity (Claude)', function () {
  this.timeout(120_000);
  it("prices a Claude conversation's messages with Anthropic's count endpoint", async () => {
    const server = await startAnthropicServer();
    try {
      const providerCounts = createProviderCounts({
        endpoints: { anthropic: anthropicCountText({ baseURL: server.origin, apiKey: () => 'sk-ant-count-0001' }) },
      });
      const messages = [
        { role: 'user', content: 'Our release branch is release/2026.12; never force-push to it.' },
        { role: 'assistant', content: 'Understood: release/2026.12 is protected from force-pushes.' },
      ];
      const baseline = serverTokens('.') - 1;
      const provided = createTokenCounter({
        model: 'claude-sonnet-4-5',
        cacheSize: 0,
        knownText: (t) => serverTokens(t) - baseline,
      });
      const estimate = createTokenCounter({ model: 'claude-sonnet-4-5', cacheSize: 0 });
      await withConversationWorker(
        async ({ open }) => {
          const conv = open(uniqueConversationId('provider-count'), { model: 'claude-sonnet-4-5', budget: 50_000 });
          const first = await conv.prepare(messages);
          const state = await conv.state();
          const want = messages.reduce((n, m) => n + provided.countMessage(m, 'chat'), 0);
          const offline = messages.reduce((n, m) => n + estimate.countMessage(m, 'chat'), 0);
          assert.notEqual(want, offline, 'the two counts differ, so the test can tell them apart');
          // The context's tokens: its messages' counts and the reply priming, once per request.
          assert.equal(state.tokens, want + provided.replyPriming);
          assert.equal(first.tokens, state.tokens);
          const calls = server.requests.length;
          assert.ok(calls >= 3, 'the texts were counted by the endpoint');
          await conv.prepare([
            { role: 'user', content: 'Our release branch is release/2026.12; never force-push to it.' },
          ]);
          assert.equal(server.requests.length, calls, 'a text already counted costs no call');
        },
        { providerCounts }
      );
    } finally {
      await server.close();
    }
  });
});

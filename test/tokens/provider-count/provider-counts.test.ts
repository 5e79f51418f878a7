/**
 * Provider counts for Claude and Gemini through the real SDKs and local servers speaking their count endpoints: each
 * priced text is counted once and cached, the counter prices a message from those counts (no safety factor), an
 * endpoint that fails costs bounded retries and then the estimate, and other models never call anything.
 */
import assert from 'node:assert/strict';
import { createTokenCounter } from '../../../src/tokens';
import { anthropicCountText, geminiCountText } from '../../../src/tokens/provider-count/endpoints';
import {
  countProviderOf,
  createProviderCounts,
  pricedTexts,
  type ProviderCounts,
} from '../../../src/tokens/provider-count/provider-counts';
import { startAnthropicServer, serverTokens as anthropicTokens } from '../../support/anthropic-server';
import { COUNT, startGeminiServer, serverTokens as geminiTokens } from '../../support/gemini-server';

const KEY = 'sk-ant-count-key-NEVER-LEAK-000000000';
const GKEY = 'AIzaCountKeyNEVERLEAK0123456789abcdef';

const messages = [
  { role: 'user', content: 'Please look up order #W2378156 and tell me when it ships.' },
  {
    role: 'assistant',
    content: 'Looking it up.',
    tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get_order', arguments: '{"id":"#W2378156"}' } }],
  },
  { role: 'tool', tool_call_id: 'c1', content: '{"status":"shipped","carrier":"UPS","eta":"2026-12-04"}' },
];

/** The counter's price of a message with the provider counting every text as `tokens` does (content only). */
function expectedPrice(raw: unknown, contentTokens: (t: string) => number): number {
  const priced = createTokenCounter({ model: 'claude-sonnet-4-5', cacheSize: 0, knownText: contentTokens });
  return priced.countMessage(raw, 'chat');
}

describe('tokens/provider-count: Claude and Gemini counted by their own endpoints', () => {
  it('maps models to the endpoint of their family, and no other', () => {
    assert.equal(countProviderOf('claude-sonnet-4-5'), 'anthropic');
    assert.equal(countProviderOf('anthropic/claude-opus-4-1'), 'anthropic');
    assert.equal(countProviderOf('gemini-2.5-pro'), 'gemini');
    assert.equal(countProviderOf('gpt-4o'), undefined);
    assert.equal(countProviderOf('llama-3.1-70b'), undefined);
  });

  it('anthropic: counts each priced text once through count_tokens, then answers from the cache', async () => {
    const server = await startAnthropicServer();
    try {
      const counts = createProviderCounts({
        endpoints: { anthropic: anthropicCountText({ baseURL: server.origin, apiKey: () => KEY }) },
      });
      await counts.prefetch('claude-sonnet-4-5', 'chat', messages);
      const texts = new Set(messages.flatMap((m) => pricedTexts(m, 'chat')).filter((t) => t !== ''));
      const countRequests = server.requests.filter((r) => r.path === '/v1/messages/count_tokens');
      assert.equal(countRequests.length, texts.size + 1, 'one per distinct text, and one baseline');
      for (const r of countRequests) {
        assert.deepEqual(Object.keys(r.body ?? {}).sort(), ['messages', 'model']);
        assert.equal(r.body?.model, 'claude-sonnet-4-5');
        assert.equal(r.headers.authorization, `Bearer ${KEY}`);
        assert.ok(!r.raw.includes(KEY));
      }
      // The provider's count of a text, less what a one-character request costs.
      const baseline = anthropicTokens('.') - 1;
      for (const t of texts) assert.equal(counts.lookup('claude-sonnet-4-5', t), anthropicTokens(t) - baseline);

      const counter = createTokenCounter({
        model: 'claude-sonnet-4-5',
        knownText: (t) => counts.lookup('claude-sonnet-4-5', t),
      });
      const estimate = createTokenCounter({ model: 'claude-sonnet-4-5' });
      for (const m of messages) {
        const want = expectedPrice(m, (t) => anthropicTokens(t) - baseline);
        assert.equal(counter.countMessage(m, 'chat'), want);
        assert.notEqual(estimate.countMessage(m, 'chat'), want, 'the offline estimate differs (o200k x 1.1)');
      }
      const before = server.requests.length;
      await counts.prefetch('claude-sonnet-4-5', 'chat', messages);
      assert.equal(server.requests.length, before, 'nothing is counted twice');
    } finally {
      await server.close();
    }
  });

  it('gemini: counts through models.countTokens with the key in the header only', async () => {
    const server = await startGeminiServer();
    try {
      const counts = createProviderCounts({
        endpoints: { gemini: geminiCountText({ baseURL: server.origin, apiKey: () => GKEY }) },
      });
      await counts.prefetch('gemini-2.5-flash', 'chat', messages.slice(0, 1));
      assert.ok(server.requests.length >= 2);
      for (const r of server.requests) {
        assert.equal(COUNT.exec(r.path)?.[1], 'gemini-2.5-flash');
        assert.equal(r.headers['x-goog-api-key'], GKEY);
        assert.ok(!r.raw.includes(GKEY) && !r.path.includes(GKEY));
      }
      const text = 'Please look up order #W2378156 and tell me when it ships.';
      assert.equal(counts.lookup('gemini-2.5-flash', text), geminiTokens(text) - (geminiTokens('.') - 1));
    } finally {
      await server.close();
    }
  });

  it('retries a failing endpoint a bounded number of times, then the counter estimates; a later count is used', async () => {
    const server = await startAnthropicServer({ failCounts: 6 });
    try {
      const failures: string[] = [];
      const counts: ProviderCounts = createProviderCounts({
        endpoints: { anthropic: anthropicCountText({ baseURL: server.origin, apiKey: () => KEY }) },
        backoffMs: 1,
        concurrency: 1,
        onFailure: (provider, model) => failures.push(`${provider}:${model}`),
      });
      const one = [messages[0]];
      await counts.prefetch('claude-sonnet-4-5', 'chat', one);
      assert.deepEqual(failures, ['anthropic:claude-sonnet-4-5']);
      assert.ok(counts.stats().failed >= 1);
      const counter = createTokenCounter({
        model: 'claude-sonnet-4-5',
        knownText: (t) => counts.lookup('claude-sonnet-4-5', t),
      });
      const estimate = createTokenCounter({ model: 'claude-sonnet-4-5' });
      assert.equal(counter.countMessage(one[0], 'chat'), estimate.countMessage(one[0], 'chat'), 'the estimate');
      await counts.prefetch('claude-sonnet-4-5', 'chat', one);
      const baseline = anthropicTokens('.') - 1;
      assert.equal(
        counter.countMessage(one[0], 'chat'),
        expectedPrice(one[0], (t) => anthropicTokens(t) - baseline),
        'an estimate is never cached over a count that arrives later'
      );
    } finally {
      await server.close();
    }
  });

  it('calls nothing for a model no configured endpoint counts', async () => {
    let calls = 0;
    const counts = createProviderCounts({
      endpoints: {
        anthropic: () => {
          calls++;
          return Promise.resolve(1);
        },
      },
    });
    await counts.prefetch('gpt-4o', 'chat', messages);
    await counts.prefetch('gemini-2.5-pro', 'chat', messages);
    assert.equal(calls, 0);
    assert.equal(counts.stats().calls, 0);
  });
});

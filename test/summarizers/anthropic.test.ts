/**
 * `anthropic` mode through the real `@anthropic-ai/sdk` against a local server speaking the Messages API: the request
 * field by field, the reply read as the API defines it, errors classified (529 overloaded and 429 retryable after
 * `retry-after`; 400/401/403 final), the key only in the authorization header.
 */
import assert from 'node:assert/strict';
import { startAnthropicServer, type AnthropicReply } from '../support/anthropic-server';
import { chatRequest, itBehavesLikeAProvider, useProviderSummarizer, type FailureCase } from './helpers';

const KEY = 'sk-ant-test-NEVER-LEAK-0123456789abcdef';

/** The provider's retryable error answers and how each must be classified. */
const FAILURES: FailureCase<AnthropicReply>[] = [
  {
    name: '529 overloaded_error',
    reply: { kind: 'status', status: 529, type: 'overloaded_error', headers: { 'retry-after': '3' } },
    type: 'Overloaded',
    retryable: true,
    retryAfterMs: 3000,
  },
  {
    name: '429 rate_limit_error',
    reply: { kind: 'status', status: 429, type: 'rate_limit_error', headers: { 'retry-after': '7' } },
    type: 'RateLimited',
    retryable: true,
    retryAfterMs: 7000,
  },
  {
    name: '500 api_error',
    reply: { kind: 'status', status: 500, type: 'api_error' },
    type: 'ServerError',
    retryable: true,
  },
];

describe('summarizers/anthropic over HTTP (the real SDK)', () => {
  const suite = useProviderSummarizer<AnthropicReply>(
    startAnthropicServer,
    { mode: 'anthropic', model: 'claude-haiku-4-5' },
    { variable: 'ANTHROPIC_API_KEY', value: KEY }
  );
  const { server: current, summarize } = suite;

  it('sends one Messages request: model, max_tokens, system apart, one user turn, no tools, no thinking', async () => {
    current().script({
      kind: 'text',
      text: 'The handler crash was fixed.',
      usage: { input: 120, output: 9, cacheRead: 40 },
    });
    const res = await summarize()(chatRequest({ systemPrompt: 'AGENT_SYSTEM' }));
    assert.ok(res.ok);
    assert.ok(res.text?.startsWith('The handler crash was fixed.'));
    assert.deepEqual(res.usage, { inputTokens: 160, outputTokens: 9, totalTokens: 169, cachedInputTokens: 40 });
    assert.equal(res.responseId, 'msg_1');
    assert.deepEqual(res.outputTypes, ['message']);
    const req = current().requests[0]!;
    assert.equal(req.method, 'POST');
    assert.equal(req.path, '/v1/messages');
    assert.deepEqual(Object.keys(req.body ?? {}).sort(), ['max_tokens', 'messages', 'model', 'system']);
    assert.equal(req.body?.model, 'claude-haiku-4-5');
    assert.equal(req.body?.max_tokens, 500, 'min(budget/2, 8192) with budget 1000');
    assert.equal(req.body?.system, 'AGENT_SYSTEM');
    const messages = req.body?.messages as { role: string; content: string }[];
    assert.equal(messages.length, 1);
    assert.equal(messages[0]!.role, 'user');
    assert.match(messages[0]!.content, /<conversation>[\s\S]*src\/server\/handler\.ts[\s\S]*Details to remember/);
    // The SDK (1.x) sends the key as a bearer token; the worker hands it over and nothing else.
    assert.equal(req.headers.authorization, `Bearer ${KEY}`);
    assert.ok(typeof req.headers['anthropic-version'] === 'string', 'the API version header is sent');
    assert.ok(!req.raw.includes(KEY), 'the key is not in the body');
  });

  it('sends max_tokens even when the profile asks for no limit, and thinking with its budget on top', async () => {
    current().script({ kind: 'text', text: 'a' }, { kind: 'text', text: 'Summary after thinking.', thinking: 'hmm' });
    await summarize({ maxOutputTokens: -1 })(chatRequest({ budget: 100_000 }));
    const thought = await summarize({ thinkingBudget: 2048, maxOutputTokens: 1000 })(chatRequest());
    assert.equal(current().requests[0]!.body?.max_tokens, 8192);
    assert.equal(current().requests[0]!.body?.thinking, undefined);
    assert.deepEqual(current().requests[1]!.body?.thinking, { type: 'enabled', budget_tokens: 2048 });
    assert.equal(current().requests[1]!.body?.max_tokens, 3048, 'the thinking budget counts against max_tokens');
    assert.ok(thought.ok);
    assert.ok(thought.text?.startsWith('Summary after thinking.'));
    assert.ok(!thought.text?.includes('hmm'), 'thinking never joins the summary');
    assert.deepEqual(thought.outputTypes, ['thinking', 'message']);
  });

  itBehavesLikeAProvider<AnthropicReply>(suite, {
    failures: FAILURES,
    finalNames: { 400: 'invalid_request_error', 401: 'authentication_error', 403: 'permission_error' },
    finalReply: (status, type) => ({ kind: 'status', status, type, message: `bad request ${KEY}` }),
    cutAt: 'max_tokens',
    cutTwice: [
      { kind: 'text', text: 'cut', stop: 'max_tokens' },
      { kind: 'text', text: 'cut', stop: 'max_tokens' },
    ],
  });
});

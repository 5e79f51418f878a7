/**
 * `anthropic-compact` mode through the real `@anthropic-ai/sdk` against a local server speaking the Messages API,
 * which checks the compaction request field by field: the request, the returned `compaction` block spliced in byte
 * for byte, failed and oversized compactions, errors classified, and transcripts of other formats refused.
 */
import assert from 'node:assert/strict';
import { SummarizerCallError, SummarizerConfigError, createSummarizer } from '../../src/summarizers';
import type { SummarizeRequest, SummarizerConfig } from '../../src/summarizers';
import { compactionRequestProblems, startAnthropicServer, type AnthropicReply } from '../support/anthropic-server';
import type { ProviderServer } from '../support/provider-server';
import { testCounterFor } from '../support/test-counter';
import { chatRequest, rejection } from './helpers';

const KEY = 'sk-ant-test-NEVER-LEAK-0123456789abcdef';

const head: unknown[] = [
  { role: 'user', content: 'Refactor lib/app.ex please' },
  {
    role: 'assistant',
    content: [
      { type: 'thinking', thinking: 'Read it first.', signature: 'sig-think' },
      { type: 'tool_use', id: 'toolu_1', name: 'read', input: { path: 'lib/app.ex' } },
    ],
  },
  { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'x'.repeat(4000) }] },
  { role: 'assistant', content: [{ type: 'text', text: 'Refactored lib/app.ex.' }] },
];

function request(overrides: Partial<SummarizeRequest> = {}): SummarizeRequest {
  return {
    format: 'anthropic',
    messages: head,
    budget: 10_000,
    model: 'claude-opus-4-6',
    foldedTokens: 1500,
    systemPrompt: 'AGENT_SYSTEM',
    ...overrides,
  };
}

/** A block with fields in an unusual order, non-ASCII text and a field the SDK does not know: it must come back so. */
const odd = {
  signature: 'c2lnbmF0dXJl/+==',
  type: 'compaction',
  encrypted_content: 'ZW5j\u00e9\u2603\\n"quoted"',
  content: 'Refactor of lib/app.ex done — tests pass.',
  future_field: { nested: [1, 'two', null] },
};

describe('summarizers/anthropic-compact over HTTP (the real SDK)', () => {
  let server: ProviderServer<AnthropicReply>;
  beforeEach(async () => (server = await startAnthropicServer()));
  afterEach(() => server.close());

  const summarize = (config: SummarizerConfig = {}) =>
    createSummarizer(
      { mode: 'anthropic-compact', baseURL: server.origin, ...config },
      { counterFor: testCounterFor, env: { ANTHROPIC_API_KEY: KEY } }
    );

  it('sends one compaction request: the beta, compaction {type: summarize}, the head as given, no tools', async () => {
    server.script({ kind: 'compaction', usage: { input: 1400, output: 35 } });
    const res = await summarize({ instructions: 'KEEP PATHS' })(request());
    assert.ok(res.ok, JSON.stringify(res));
    const req = server.requests[0]!;
    assert.equal(req.method, 'POST');
    assert.match(req.path, /^\/v1\/messages(\?beta=true)?$/);
    assert.deepEqual(compactionRequestProblems(req), []);
    assert.ok(String(req.headers['anthropic-beta']).split(',').includes('compact-2026-09-04'));
    assert.deepEqual(Object.keys(req.body ?? {}).sort(), ['compaction', 'max_tokens', 'messages', 'model', 'system']);
    assert.deepEqual(req.body?.compaction, { type: 'summarize' }, "the profile's instructions would replace the API's");
    assert.equal(req.body?.model, 'claude-opus-4-6', "the conversation's model when the profile names none");
    assert.equal(req.body?.max_tokens, 5000, 'min(budget/2, 8192) with budget 10000');
    assert.equal(req.body?.system, 'AGENT_SYSTEM');
    assert.deepEqual(req.body?.messages, head, 'the head travels as the caller wrote it, thinking and tools included');
    assert.equal(req.headers.authorization, `Bearer ${KEY}`);
    assert.ok(!req.raw.includes(KEY), 'the key is not in the body');
    assert.equal(res.text, undefined);
    assert.deepEqual(res.outputTypes, ['compaction']);
    assert.equal(res.responseId, 'msg_1');
    assert.deepEqual(res.usage, { inputTokens: 1400, outputTokens: 35, totalTokens: 1435 });
    assert.ok(res.summaryTokens > 0 && res.summaryTokens < 1500);
    assert.deepEqual(res.ledger, { appended: 0, omitted: 0 }, 'nothing is appended to an opaque block');
    const items = res.items as { role: string; content: Record<string, unknown>[] }[];
    assert.equal(items.length, 1);
    assert.equal(items[0]!.role, 'user', 'the folded part opens the context, where a user turn must be');
    assert.equal(items[0]!.content.length, 1);
    assert.equal(items[0]!.content[0]!.type, 'compaction');
  });

  it('keeps the returned block byte for byte: field order, escapes and unknown fields', async () => {
    server.script({ kind: 'compaction', block: odd });
    const res = await summarize({ model: 'claude-sonnet-4-6' })(request());
    assert.ok(res.ok, JSON.stringify(res));
    assert.equal(server.requests[0]!.body?.model, 'claude-sonnet-4-6');
    const items = res.items as { content: unknown[] }[];
    assert.equal(JSON.stringify(items[0]!.content[0]), JSON.stringify(odd));
    assert.equal(JSON.stringify(items), JSON.stringify([{ role: 'user', content: [odd] }]));
  });

  it('asks again after a failed compaction (content null), then fails unfolded', async () => {
    const failed = { type: 'compaction', content: null, encrypted_content: null };
    server.script({ kind: 'compaction', block: failed }, { kind: 'compaction', block: failed });
    const res = await summarize()(request());
    assert.equal(res.ok, false);
    if (res.ok) return;
    assert.equal(res.kind, 'no_text');
    assert.equal(res.attempts, 2);
    assert.deepEqual(res.outputTypes, ['compaction_failed']);
    assert.equal(server.requests.length, 2);
  });

  it('rejects a compaction no smaller than what it folds as too_large', async () => {
    const big = { type: 'compaction', content: 'y'.repeat(40_000), encrypted_content: 'e' };
    server.script({ kind: 'compaction', block: big }, { kind: 'compaction', block: big });
    const res = await summarize()(request());
    assert.equal(res.ok, false);
    if (!res.ok) assert.equal(res.kind, 'too_large');
  });

  it('classifies 529 as a retryable Overloaded and 400 as a final BadRequest, the key scrubbed', async () => {
    server.script(
      { kind: 'status', status: 529, type: 'overloaded_error', headers: { 'retry-after': '2' } },
      { kind: 'status', status: 400, type: 'invalid_request_error', message: `bad ${KEY}` }
    );
    const overloaded = await rejection(summarize()(request()));
    assert.ok(overloaded instanceof SummarizerCallError, `${overloaded.name}: ${overloaded.message}`);
    assert.equal(overloaded.type, 'Overloaded');
    assert.equal(overloaded.retryable, true);
    assert.equal(overloaded.retryAfterMs, 2000);
    const bad = await rejection(summarize()(request()));
    assert.ok(bad instanceof SummarizerCallError);
    assert.equal(bad.type, 'BadRequest');
    assert.equal(bad.retryable, false);
    assert.ok(!JSON.stringify({ ...bad, message: bad.message }).includes(KEY), 'the key is in no field');
    assert.equal(server.requests.length, 2, 'one request each: the SDK does not retry by itself');
  });

  it('refuses chat and Responses transcripts without calling the API', async () => {
    const responses = request({ format: 'responses', messages: [{ type: 'message', role: 'user', content: 'hi' }] });
    for (const req of [chatRequest(), responses]) {
      const e = await rejection(summarize()(req));
      assert.ok(e instanceof SummarizerConfigError, `${e.name}: ${e.message}`);
      assert.equal(e.retryable, false);
      assert.match(e.message, /anthropic-compact mode needs an Anthropic transcript/);
    }
    assert.equal(server.requests.length, 0);
  });

  it("the server's check fails a request that is not a compaction request as documented", () => {
    const good = {
      headers: { 'anthropic-beta': 'compact-2026-09-04' },
      body: {
        model: 'm',
        max_tokens: 10,
        messages: [{ role: 'user', content: 'hi' }],
        compaction: { type: 'summarize' },
      },
    };
    assert.deepEqual(compactionRequestProblems(good), []);
    assert.match(compactionRequestProblems({ ...good, headers: {} }).join(), /lacks compact-2026-09-04/);
    const edit = { ...good.body, context_management: { edits: [{ type: 'compact_20260112' }] } };
    assert.match(compactionRequestProblems({ ...good, body: edit }).join(), /unexpected field 'context_management'/);
    const asst = { ...good.body, messages: [{ role: 'assistant', content: 'x' }] };
    assert.match(compactionRequestProblems({ ...good, body: asst }).join(), /first turn is not a user turn/);
  });
});

import assert from 'node:assert/strict';
import { useOpenAIServer } from '../support/openai-server';
import { SummarizerConfigError } from '../../src/summarizers';
import { chatRequest, rejection, summarizerFor } from './helpers';

const head: unknown[] = [
  { type: 'message', role: 'user', content: 'Refactor lib/app.ex please' },
  { type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'enc' },
  { type: 'function_call', id: 'fc_1', call_id: 'call_c1', name: 'read', arguments: '{"path":"lib/app.ex"}' },
  { type: 'function_call_output', call_id: 'call_c1', output: 'x'.repeat(4000) },
  { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Refactored.' }] },
];
const request = { format: 'responses' as const, messages: head, budget: 10_000, model: 'm', foldedTokens: 1200 };

describe('summarizers/compact over HTTP', () => {
  const server = useOpenAIServer();

  it('returns the endpoint output as the folded part: user messages as returned, then the compaction item', async () => {
    server.script({ kind: 'compaction', size: 80, usage: { input: 900, output: 30 } });
    const res = await summarizerFor(server, { mode: 'compact' })(request);
    assert.ok(res.ok);
    assert.equal(res.text, undefined);
    const items = res.items as Record<string, unknown>[];
    assert.deepEqual(items[0], head[0], 'the user message is kept as returned');
    assert.equal(items[1]?.type, 'compaction');
    assert.deepEqual(res.outputTypes, ['message', 'compaction']);
    assert.equal(res.usage?.inputTokens, 900);
    assert.ok(res.summaryTokens > 0 && res.summaryTokens < request.foldedTokens);
    const body = server.requests[0]!.body!;
    assert.equal(server.requests[0]!.path, '/v1/responses/compact');
    assert.equal(body.tools, undefined);
    assert.equal((body.input as unknown[]).length, head.length, 'the endpoint gets the whole head, reasoning included');
  });

  it('asks again when no compaction item comes back, then fails unfolded', async () => {
    server.script({ kind: 'empty' }, { kind: 'empty' });
    const res = await summarizerFor(server, { mode: 'compact' })(request);
    assert.equal(res.ok, false);
    if (res.ok) return;
    assert.equal(res.kind, 'no_text');
    assert.equal(server.requests.length, 2);
  });

  it('rejects an oversized compaction as too_large', async () => {
    server.script({ kind: 'compaction', size: 40_000 }, { kind: 'compaction', size: 40_000 });
    const res = await summarizerFor(server, { mode: 'compact' })(request);
    assert.equal(res.ok, false);
    if (!res.ok) assert.equal(res.kind, 'too_large');
  });

  it('refuses a chat transcript without calling the endpoint', async () => {
    const e = await rejection(summarizerFor(server, { mode: 'compact' })(chatRequest()));
    assert.ok(e instanceof SummarizerConfigError);
    assert.equal(e.retryable, false);
    assert.equal(server.requests.length, 0);
  });
});

import assert from 'node:assert/strict';
import { useOpenAIServer } from '../support/openai-server';
import { TEST_KEY, summarizerFor } from './helpers';

const responsesHead: unknown[] = [
  { role: 'user', content: 'Book flight HAT001 for reservation ZFA04Y' },
  {
    type: 'reasoning',
    id: 'rs_1',
    summary: [{ type: 'summary_text', text: 'PRIVATE_REASONING' }],
    encrypted_content: 'enc',
  },
  { type: 'function_call', id: 'fc_1', call_id: 'call_b1', name: 'book', arguments: '{"flight":"HAT001"}' },
  { type: 'function_call_output', call_id: 'call_b1', output: 'booked' },
  { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Booked HAT001.' }] },
];

describe('summarizers/responses over HTTP', () => {
  const server = useOpenAIServer();

  const request = {
    format: 'responses' as const,
    messages: responsesHead,
    budget: 1000,
    model: 'm',
    foldedTokens: 300,
  };

  it('sends store:false, no tools, no reasoning items, max_output_tokens, instructions last', async () => {
    server.script({
      kind: 'text',
      text: 'Flight HAT001 booked on ZFA04Y.',
      usage: { input: 50, output: 8, cached: 40 },
    });
    const res = await summarizerFor(server, { mode: 'responses' })({ ...request, systemPrompt: 'SYS' });
    assert.ok(res.ok);
    assert.ok(res.text?.startsWith('Flight HAT001 booked on ZFA04Y.'));
    assert.equal(res.responseId, 'resp_1');
    assert.deepEqual(res.outputTypes, ['message']);
    assert.equal(res.usage?.cachedInputTokens, 40);
    const body = server.requests[0]!.body!;
    assert.equal(server.requests[0]!.path, '/v1/responses');
    assert.equal(body.store, false);
    assert.equal(body.tools, undefined);
    assert.equal(body.max_output_tokens, 500);
    assert.equal(body.instructions, 'SYS');
    const input = body.input as Record<string, unknown>[];
    assert.ok(!input.some((i) => i.type === 'reasoning'), 'no reasoning items');
    assert.ok(!server.requests[0]!.raw.includes('PRIVATE_REASONING'));
    assert.equal(input.length, 5, 'four head items without the reasoning, then the instructions');
    assert.match(String(input[4]?.content), /Details to remember/);
    assert.ok(!server.requests[0]!.raw.includes(TEST_KEY));
  });

  it('renders a chat transcript into one user item', async () => {
    server.script({ kind: 'text', text: 'ok' });
    await summarizerFor(server, { mode: 'responses' })({
      format: 'chat',
      messages: [{ role: 'user', content: 'hi there' }],
      budget: 1000,
      model: 'm',
      foldedTokens: 300,
    });
    const input = server.requests[0]!.body!.input as Record<string, unknown>[];
    assert.equal(input.length, 1);
    assert.match(String(input[0]?.content), /User: hi there/);
  });

  it('asks again after an incomplete response and fails unfolded after two', async () => {
    server.script({ kind: 'incomplete' }, { kind: 'incomplete' });
    const res = await summarizerFor(server, { mode: 'responses' })(request);
    assert.equal(res.ok, false);
    if (res.ok) return;
    assert.equal(res.kind, 'incomplete');
    assert.match(res.message, /max_output_tokens/);
    assert.equal(res.attempts, 2);
    assert.deepEqual(res.usage, {
      inputTokens: 200,
      outputTokens: 40,
      totalTokens: 240,
      cachedInputTokens: 0,
      reasoningTokens: 0,
    });
  });

  it('records a function call as output type and asks again', async () => {
    server.script({ kind: 'function_call' }, { kind: 'text', text: 'done' });
    const res = await summarizerFor(server, { mode: 'responses' })(request);
    assert.ok(res.ok);
    assert.deepEqual(res.rejected, ['no_text']);
    assert.equal(server.requests.length, 2);
  });
});

import assert from 'node:assert/strict';
import { createSummarizer } from '../../src/summarizers';
import { useOpenAIServer } from '../support/openai-server';
import { testCounterFor } from '../support/test-counter';
import { SUMMARY_MARKER } from '../../src/core/messages/summary-marker';
import { TEST_KEY, chatHead, chatRequest, summarizerFor } from './helpers';

describe('summarizers/chat over HTTP', () => {
  const server = useOpenAIServer();

  it('summarises with one call: no tools, the output limit, our instructions, the key only in the header', async () => {
    server.script({ kind: 'text', text: 'The handler crash was fixed.', usage: { input: 120, output: 9 } });
    const res = await summarizerFor(server, { mode: 'chat' })(chatRequest({ systemPrompt: 'AGENT_SYSTEM' }));
    assert.equal(res.ok, true);
    if (!res.ok) return;
    assert.ok(res.text?.startsWith('The handler crash was fixed.'));
    assert.equal(res.attempts, 1);
    assert.deepEqual(res.usage, { inputTokens: 120, outputTokens: 9, totalTokens: 129 });
    assert.equal(res.responseId, 'chatcmpl-1');
    assert.deepEqual(res.outputTypes, ['message']);
    const req = server.requests[0]!;
    assert.equal(req.path, '/v1/chat/completions');
    assert.equal(req.body?.tools, undefined);
    assert.equal(req.body?.tool_choice, undefined);
    assert.equal(req.body?.max_tokens, 500, 'min(budget/2, 8192) with budget 1000');
    const messages = req.body?.messages as { role: string; content: string }[];
    assert.deepEqual(messages[0], { role: 'system', content: 'AGENT_SYSTEM' });
    assert.match(messages[1]!.content, /Details to remember/);
    assert.equal(req.headers.authorization, `Bearer ${TEST_KEY}`);
    assert.ok(!req.raw.includes(TEST_KEY), 'the key is not in the body');
  });

  it('passes a previous summary whole to the model, however long (no prose clip)', async () => {
    server.script({ kind: 'text', text: 'Merged summary.' });
    const previous = `${SUMMARY_MARKER}: 40 earlier item(s) folded]\n\n${'Decided to keep the cache. '.repeat(600)}LAST-DECISION-7f3a`;
    const messages = [{ role: 'user', content: previous }, ...chatHead];
    await summarizerFor(server, { mode: 'chat' })(chatRequest({ messages, budget: 100_000 }));
    const sent = JSON.stringify(server.requests[0]!.body?.messages);
    assert.ok(previous.length > 15_000);
    assert.ok(sent.includes('LAST-DECISION-7f3a'), 'the end of the previous summary reaches the summarizer');
  });

  it('caps the output at 8192, honours a configured limit, and can send none', async () => {
    server.script({ kind: 'text', text: 'a' }, { kind: 'text', text: 'b' }, { kind: 'text', text: 'c' });
    await summarizerFor(server, { mode: 'chat' })(chatRequest({ budget: 100_000 }));
    await summarizerFor(server, { mode: 'chat', maxOutputTokens: 64 })(chatRequest());
    await summarizerFor(server, { mode: 'chat', maxOutputTokens: -1 })(chatRequest());
    assert.deepEqual(
      server.requests.map((r) => r.body?.max_tokens),
      [8192, 64, undefined]
    );
  });

  it("checks the model's summary against the state ledger and appends the rules and decisions it dropped", async () => {
    const messages = [
      ...chatHead,
      { role: 'user', content: 'Never deploy on a Friday. The error budget is at most 120 failed requests a day.' },
      { role: 'assistant', content: 'We decided to switch to blue-green deploys instead of rolling ones.' },
    ];
    const seqs = messages.map((_, i) => 40 + i);
    server.script(
      { kind: 'text', text: 'Fixed the crash in src/server/handler.ts for OPS-42.' },
      {
        kind: 'text',
        text: 'Task: Please fix the crash in src/server/handler.ts (ticket OPS-42). The handler throws on every request; the throw was replaced with a 500 response. Rule: never deploy on a Friday; error budget at most 120 failed requests a day. Decided to switch to blue-green deploys instead of rolling ones.',
      }
    );
    const dropped = await summarizerFor(server, { mode: 'chat' })(chatRequest({ messages, seqs, budget: 4000 }));
    assert.ok(dropped.ok);
    const text = dropped.text ?? '';
    assert.ok(text.startsWith('Fixed the crash in src/server/handler.ts for OPS-42.'), text);
    assert.match(text, /From the state ledger, left out of the summary above/);
    assert.match(text, /^- \[#44\] Never deploy on a Friday\.$/m);
    assert.match(text, /^- \[#44\] The error budget is at most 120 failed requests a day\.$/m);
    assert.match(text, /^- \[#45\] We decided to switch to blue-green deploys instead of rolling ones\.$/m);
    // What the assistant found, with its value, is kept too (the least binding kind, last).
    assert.match(text, /^- \[#43\] The handler throws on every request; I replaced the throw with a 500 response\.$/m);
    assert.equal(dropped.stateLedger?.appended, 4);
    assert.equal(dropped.summaryTokens, testCounterFor().countText(text));

    const complete = await summarizerFor(server, { mode: 'chat' })(chatRequest({ messages, seqs, budget: 4000 }));
    assert.ok(complete.ok);
    assert.ok(!complete.text?.includes('From the state ledger'), complete.text);
    assert.equal(complete.stateLedger?.appended, 0);
  });

  it('applies the identifier ledger to the text and reports retention', async () => {
    server.script({ kind: 'text', text: 'A crash was fixed.' });
    const res = await summarizerFor(server, { mode: 'chat' })(chatRequest());
    assert.ok(res.ok);
    assert.ok(res.text?.includes('src/server/handler.ts'));
    assert.ok(res.text?.includes('OPS-42'));
    assert.equal(res.retentionBefore.kept, 0);
    assert.equal(res.retention.kept, res.retention.total);
    // The state ledger appends the task the model left out (with its path and ticket) before the identifier ledger.
    assert.ok(res.ledger.appended + (res.stateLedger?.appended ?? 0) >= 1);
  });

  it('asks again after no text, sums usage, and records the rejection', async () => {
    server.script(
      { kind: 'empty', usage: { input: 1, output: 2 } },
      { kind: 'text', text: 'Fixed.', usage: { input: 3, output: 4 } }
    );
    const res = await summarizerFor(server, { mode: 'chat' })(chatRequest());
    assert.ok(res.ok);
    assert.equal(res.attempts, 2);
    assert.deepEqual(res.rejected, ['no_text']);
    assert.deepEqual(res.usage, { inputTokens: 4, outputTokens: 6, totalTokens: 10 });
    assert.equal(server.requests.length, 2);
  });

  it('asks again after a function call instead of text', async () => {
    server.script({ kind: 'function_call' }, { kind: 'text', text: 'Fixed.' });
    const res = await summarizerFor(server, { mode: 'chat' })(chatRequest());
    assert.ok(res.ok);
    assert.deepEqual(res.rejected, ['no_text']);
  });

  for (const [kind, reply] of [
    ['no_text', { kind: 'empty' }],
    ['incomplete', { kind: 'incomplete' }],
    ['too_large', { kind: 'oversize', words: 2000 }],
  ] as const) {
    it(`fails unfolded with ${kind} when both attempts are rejected`, async () => {
      server.script(reply, reply);
      const res = await summarizerFor(server, { mode: 'chat' })(chatRequest());
      assert.equal(res.ok, false);
      if (res.ok) return;
      assert.equal(res.kind, kind);
      assert.equal(res.attempts, 2);
      assert.deepEqual(res.rejected, [kind, kind]);
      assert.deepEqual(res.usage, { inputTokens: 200, outputTokens: 40, totalTokens: 240 });
      assert.equal(res.responseId, 'chatcmpl-2');
      assert.equal(server.requests.length, 2);
    });
  }

  it('accepts a summary after one oversized attempt', async () => {
    server.script({ kind: 'oversize', words: 2000 }, { kind: 'text', text: 'Small.' });
    const res = await summarizerFor(server, { mode: 'chat' })(chatRequest());
    assert.ok(res.ok);
    assert.deepEqual(res.rejected, ['too_large']);
  });

  it('calls the progress callbacks around the blocking call', async () => {
    server.script({ kind: 'empty' }, { kind: 'text', text: 'ok' });
    const events: string[] = [];
    let t = 1000;
    const s = createSummarizer(
      { mode: 'chat', baseURL: server.baseURL },
      { counterFor: testCounterFor, env: { OPENAI_API_KEY: TEST_KEY }, now: () => (t += 1) }
    );
    await s(chatRequest(), {
      onStart: (p) => events.push(`start ${p.mode} ${p.attempt} ${p.startedAt}`),
      onComplete: (r) => events.push(`complete ${r.ok}`),
    });
    assert.deepEqual(events, ['start chat 1 1001', 'start chat 2 1002', 'complete true']);
  });
});

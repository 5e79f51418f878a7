/**
 * `gemini` mode through the real `@google/genai` SDK against a local server speaking the Gemini API: the request field
 * by field, the reply read as the API defines it (thought parts left out), errors classified (429 retryable after the
 * body's RetryInfo delay; 400/401/403 final), the key only in the `x-goog-api-key` header.
 */
import assert from 'node:assert/strict';
import { GENERATE, startGeminiServer, type GeminiReply } from '../support/gemini-server';
import { chatRequest, itBehavesLikeAProvider, useProviderSummarizer, type FailureCase } from './helpers';

const KEY = 'AIzaTestNEVERLEAK0123456789abcdefghij';

/** The provider's retryable error answers and how each must be classified. */
const FAILURES: FailureCase<GeminiReply>[] = [
  {
    name: '429 RESOURCE_EXHAUSTED with RetryInfo',
    reply: { kind: 'status', status: 429, code: 'RESOURCE_EXHAUSTED', retryDelay: '12s' },
    type: 'RateLimited',
    retryable: true,
    retryAfterMs: 12000,
  },
  {
    name: '503 UNAVAILABLE',
    reply: { kind: 'status', status: 503, code: 'UNAVAILABLE' },
    type: 'ServerError',
    retryable: true,
  },
];

describe('summarizers/gemini over HTTP (the real SDK)', () => {
  const suite = useProviderSummarizer<GeminiReply>(
    startGeminiServer,
    { mode: 'gemini', model: 'gemini-2.5-flash' },
    { variable: 'GEMINI_API_KEY', value: KEY }
  );
  const { server: current, summarize } = suite;

  it('sends one generateContent request: one user turn, systemInstruction apart, the limit, thinking off', async () => {
    current().script({ kind: 'text', text: 'The handler crash was fixed.', usage: { prompt: 120, candidates: 9 } });
    const res = await summarize()(chatRequest({ systemPrompt: 'AGENT_SYSTEM' }));
    assert.ok(res.ok);
    assert.ok(res.text?.startsWith('The handler crash was fixed.'));
    assert.deepEqual(res.usage, { inputTokens: 120, outputTokens: 9, totalTokens: 129 });
    assert.equal(res.responseId, 'resp-1');
    const req = current().requests[0]!;
    assert.equal(req.method, 'POST');
    assert.equal(GENERATE.exec(req.path)?.[1], 'gemini-2.5-flash');
    assert.deepEqual(Object.keys(req.body ?? {}).sort(), ['contents', 'generationConfig', 'systemInstruction']);
    const contents = req.body?.contents as { role: string; parts: { text: string }[] }[];
    assert.equal(contents.length, 1);
    assert.equal(contents[0]!.role, 'user');
    assert.equal(contents[0]!.parts.length, 1);
    assert.match(
      contents[0]!.parts[0]!.text,
      /<conversation>[\s\S]*src\/server\/handler\.ts[\s\S]*Details to remember/
    );
    assert.deepEqual(req.body?.systemInstruction, { parts: [{ text: 'AGENT_SYSTEM' }], role: 'user' });
    assert.deepEqual(req.body?.generationConfig, { maxOutputTokens: 500, thinkingConfig: { thinkingBudget: 0 } });
    assert.equal(req.body?.tools, undefined);
    assert.equal(req.headers['x-goog-api-key'], KEY);
    assert.ok(!req.raw.includes(KEY) && !req.path.includes(KEY), 'the key is in neither the body nor the URL');
  });

  it('leaves thought parts out of the summary and sends the thinking budget on top of the limit', async () => {
    current().script({
      kind: 'text',
      text: 'Summary after thinking.',
      thought: 'hmm',
      usage: { prompt: 10, candidates: 5, thoughts: 30 },
    });
    const res = await summarize({ thinkingBudget: 1024, maxOutputTokens: 1000 })(chatRequest());
    assert.ok(res.ok);
    assert.ok(res.text?.startsWith('Summary after thinking.'));
    assert.ok(!res.text?.includes('hmm'));
    assert.deepEqual(res.outputTypes, ['thought', 'message']);
    assert.deepEqual(res.usage, { inputTokens: 10, outputTokens: 35, totalTokens: 45, reasoningTokens: 30 });
    assert.deepEqual(current().requests[0]!.body?.generationConfig, {
      maxOutputTokens: 2024,
      thinkingConfig: { thinkingBudget: 1024 },
    });
  });

  itBehavesLikeAProvider<GeminiReply>(suite, {
    failures: FAILURES,
    finalNames: { 400: 'INVALID_ARGUMENT', 401: 'UNAUTHENTICATED', 403: 'PERMISSION_DENIED' },
    finalReply: (status, code) => ({ kind: 'status', status, code, message: `API key not valid: ${KEY}` }),
    cutAt: 'MAX_TOKENS',
    cutTwice: [
      { kind: 'text', text: 'cut', finish: 'MAX_TOKENS' },
      { kind: 'text', text: 'cut', finish: 'SAFETY' },
    ],
  });
});

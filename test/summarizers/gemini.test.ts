/**
 * `gemini` mode through the real `@google/genai` SDK against a local server speaking the Gemini API: the request field
 * by field, the reply read as the API defines it (thought parts left out), errors classified (429 retryable after the
 * body's RetryInfo delay; 400/401/403 final), the key only in the `x-goog-api-key` header.
 */
import assert from 'node:assert/strict';
import { SummarizerCallError } from '../../src/summarizers';
import { GENERATE, startGeminiServer, type GeminiReply } from '../support/gemini-server';
import {
  assertIncompleteTwice,
  chatRequest,
  finalStatusFailures,
  itClassifiesFailures,
  rejection,
  useProviderSummarizer,
  type FailureCase,
} from './helpers';

const KEY = 'AIzaTestNEVERLEAK0123456789abcdefghij';

/** The provider's error answers and how each must be classified. */
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
  ...finalStatusFailures<GeminiReply>(
    { 400: 'INVALID_ARGUMENT', 401: 'UNAUTHENTICATED', 403: 'PERMISSION_DENIED' },
    (status, code) => ({ kind: 'status', status, code, message: `API key not valid: ${KEY}` })
  ),
];

describe('summarizers/gemini over HTTP (the real SDK)', () => {
  const { server: current, summarize } = useProviderSummarizer<GeminiReply>(
    startGeminiServer,
    { mode: 'gemini', model: 'gemini-2.5-flash' },
    { GEMINI_API_KEY: KEY }
  );

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

  it('asks again after a reply cut at MAX_TOKENS, and fails unfolded after two', async () => {
    current().script(
      { kind: 'text', text: 'cut', finish: 'MAX_TOKENS' },
      { kind: 'text', text: 'cut', finish: 'SAFETY' }
    );
    assertIncompleteTwice(await summarize()(chatRequest()), current().requests.length);
  });

  it('reads the key from GEMINI_API_KEY by default and names the variable when it is missing', async () => {
    const e = await rejection(summarize({}, {})(chatRequest()));
    assert.ok(e instanceof SummarizerCallError);
    assert.match(e.message, /GEMINI_API_KEY is not set/);
    assert.equal(current().requests.length, 0);
  });

  itClassifiesFailures<GeminiReply>({
    failures: FAILURES,
    slow: (ms) => ({ kind: 'slow', ms }),
    drop: { kind: 'drop' },
    key: KEY,
    server: current,
    summarize,
  });
});

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SummarizerAbortedError, SummarizerCallError, createSummarizer } from '../../src/summarizers';
import type { SummarizerMode } from '../../src/summarizers';
import { useOpenAIServer, type ScriptedReply } from '../support/openai-server';
import { testCounterFor } from '../support/test-counter';
import { TEST_KEY, chatRequest, rejection, summarizerFor } from './helpers';

const responsesRequest = {
  format: 'responses' as const,
  messages: [{ type: 'message', role: 'user', content: 'hello src/a.ts' }],
  budget: 1000,
  model: 'm',
  foldedTokens: 300,
};
const requestFor = (mode: SummarizerMode) => (mode === 'chat' ? chatRequest() : responsesRequest);

describe('summarizers: transport failures over HTTP', () => {
  const server = useOpenAIServer();

  async function fail(mode: SummarizerMode, reply: ScriptedReply, config = {}): Promise<SummarizerCallError> {
    server.script(reply);
    const e = await rejection(summarizerFor(server, { mode, ...config })(requestFor(mode)));
    assert.ok(e instanceof SummarizerCallError, `${e.name}: ${e.message}`);
    assert.ok(!e.message.includes(TEST_KEY), 'the key is not in the message');
    assert.ok(!JSON.stringify(e).includes(TEST_KEY), 'the key is not in any field');
    return e;
  }

  for (const mode of ['chat', 'responses', 'compact'] as const) {
    describe(mode, () => {
      it('429 with retry-after seconds is retryable after that delay', async () => {
        const e = await fail(mode, { kind: 'status', status: 429, headers: { 'retry-after': '7' } });
        assert.equal(e.type, 'RateLimited');
        assert.equal(e.retryable, true);
        assert.equal(e.retryAfterMs, 7000);
        assert.equal(server.requests.length, 1, 'the client does not retry by itself');
      });

      it('500 is retryable', async () => {
        const e = await fail(mode, { kind: 'status', status: 500, message: 'upstream exploded' });
        assert.equal(e.type, 'ServerError');
        assert.equal(e.retryable, true);
        assert.match(e.message, /500.*upstream exploded/);
        assert.equal(server.requests.length, 1);
      });

      it('malformed JSON is retryable', async () => {
        const e = await fail(mode, { kind: 'malformed' });
        assert.equal(e.type, 'MalformedResponse');
        assert.equal(e.retryable, true);
      });

      it('a dropped connection is retryable', async () => {
        const e = await fail(mode, { kind: 'drop' });
        assert.equal(e.type, 'ConnectionError');
        assert.equal(e.retryable, true);
      });
    });
  }

  it('retry-after-ms wins over retry-after; an HTTP date is read too', async () => {
    const ms = await fail('chat', {
      kind: 'status',
      status: 429,
      headers: { 'retry-after-ms': '1500', 'retry-after': '9' },
    });
    assert.equal(ms.retryAfterMs, 1500);
    const at = new Date(Date.now() + 120_000).toUTCString();
    const date = await fail('chat', { kind: 'status', status: 503, headers: { 'retry-after': at } });
    assert.equal(date.type, 'ServerError');
    assert.ok(date.retryAfterMs !== undefined && date.retryAfterMs > 60_000 && date.retryAfterMs <= 120_000);
  });

  for (const [status, type] of [
    [400, 'BadRequest'],
    [401, 'Unauthorized'],
    [403, 'Forbidden'],
    [404, 'NotFound'],
    [422, 'Unprocessable'],
  ] as const) {
    it(`${status} is not retryable and names the cause`, async () => {
      const e = await fail('chat', { kind: 'status', status, message: `provider says ${status}` });
      assert.equal(e.type, type);
      assert.equal(e.retryable, false);
      assert.equal(e.status, status);
      assert.match(e.message, new RegExp(`\\(${status}\\).*provider says ${status}`));
    });
  }

  it('a provider message that echoes the key is scrubbed', async () => {
    const e = await fail('chat', { kind: 'status', status: 401, message: `Incorrect API key provided: ${TEST_KEY}.` });
    assert.match(e.message, /Incorrect API key provided: \*\*\*/);
  });

  it('a request slower than the timeout fails as a retryable timeout', async () => {
    const e = await fail('chat', { kind: 'slow', ms: 30_000 }, { timeoutMs: 200 });
    assert.equal(e.type, 'Timeout');
    assert.equal(e.retryable, true);
  });

  it('an abort through the signal stops the request', async () => {
    server.script({ kind: 'slow', ms: 30_000 });
    const controller = new AbortController();
    const pending = summarizerFor(server, { mode: 'chat' })(chatRequest(), controller.signal);
    while (server.requests.length === 0) await new Promise((r) => setTimeout(r, 5));
    controller.abort();
    const e = await rejection(pending);
    assert.ok(e instanceof SummarizerAbortedError, `${e.name}: ${e.message}`);
  });

  describe('API key', () => {
    it('is read from a file named in config', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'dc-key-'));
      try {
        const file = join(dir, 'key');
        writeFileSync(file, 'sk-from-file-abcdef123\n');
        server.script({ kind: 'text', text: 'ok' });
        const s = createSummarizer(
          { mode: 'chat', baseURL: server.baseURL, apiKeyFile: file },
          { counterFor: testCounterFor, env: {} }
        );
        await s(chatRequest());
        assert.equal(server.requests[0]!.headers.authorization, 'Bearer sk-from-file-abcdef123');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it('is read from the variable named by apiKeyEnv', async () => {
      server.script({ kind: 'text', text: 'ok' });
      const s = createSummarizer(
        { mode: 'chat', baseURL: server.baseURL, apiKeyEnv: 'MY_LLM_KEY' },
        { counterFor: testCounterFor, env: { MY_LLM_KEY: 'sk-other-0987654321' } }
      );
      await s(chatRequest());
      assert.equal(server.requests[0]!.headers.authorization, 'Bearer sk-other-0987654321');
    });

    it('missing: a non-retryable configuration error naming the variable, and no request', async () => {
      const s = createSummarizer({ mode: 'chat', baseURL: server.baseURL }, { counterFor: testCounterFor, env: {} });
      const e = await rejection(s(chatRequest()));
      assert.ok(e instanceof SummarizerCallError);
      assert.equal(e.retryable, false);
      assert.match(e.message, /OPENAI_API_KEY/);
      assert.equal(server.requests.length, 0);
    });
  });
});

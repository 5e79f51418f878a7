import assert from 'node:assert/strict';
import type { SummarizeRequest, Summarizer, SummarizerConfig, SummarizeResult } from '../../src/summarizers';
import type { ProviderServer } from '../support/provider-server';
import { SummarizerAbortedError, SummarizerCallError, createSummarizer } from '../../src/summarizers';
import type { OpenAITestServer } from '../support/openai-server';
import { testCounterFor } from '../support/test-counter';

/** The key the tests put in the environment; it must never show up anywhere but the Authorization header. */
export const TEST_KEY = 'sk-test-NEVER-LEAK-0123456789abcdef';

/** A small chat head with identifiers, a tool call and its result. */
export const chatHead: unknown[] = [
  { role: 'user', content: 'Please fix the crash in src/server/handler.ts (ticket OPS-42).' },
  {
    role: 'assistant',
    content: 'Reading the handler.',
    tool_calls: [
      {
        id: 'call_a1',
        type: 'function',
        function: { name: 'read_file', arguments: '{"path":"src/server/handler.ts"}' },
      },
    ],
  },
  { role: 'tool', tool_call_id: 'call_a1', content: 'export function handle() { throw new Error("boom") }' },
  { role: 'assistant', content: 'The handler throws on every request; I replaced the throw with a 500 response.' },
];

/** A request over {@link chatHead}. */
export function chatRequest(overrides: Partial<SummarizeRequest> = {}): SummarizeRequest {
  return { format: 'chat', messages: chatHead, budget: 1000, model: 'test-model', foldedTokens: 400, ...overrides };
}

/** A summarizer for the given mode against the test server. */
export function summarizerFor(
  server: OpenAITestServer,
  config: SummarizerConfig
): (req: SummarizeRequest, signal?: AbortSignal) => Promise<SummarizeResult> {
  const s = createSummarizer(
    { baseURL: server.baseURL, ...config },
    {
      counterFor: testCounterFor,
      env: { OPENAI_API_KEY: TEST_KEY },
    }
  );
  return (req, signal) => s(req, signal ? { signal } : {});
}

/** Asserts a promise rejects and returns the error. */
export async function rejection(p: Promise<unknown>): Promise<Error & Record<string, unknown>> {
  try {
    await p;
  } catch (e) {
    return e as Error & Record<string, unknown>;
  }
  throw new Error('expected a rejection');
}

/** One transport failure a provider test server can be scripted with, and how it must be classified. */
export interface FailureCase<R> {
  name: string;
  reply: R;
  type: string;
  retryable: boolean;
  retryAfterMs?: number;
}

/** The replies every provider test server has besides its own: a slow answer and a dropped connection. */
type CommonReply = { kind: 'slow'; ms: number } | { kind: 'drop' };

/**
 * Registers, in the calling `describe`, one test per failure: the summarizer rejects with a SummarizerCallError of
 * the expected type, retryability and delay, no field holds the key, and the SDK made one request (no client-side
 * retry); the same for a dropped connection (a retryable `ConnectionError`); then one test that a timeout is a
 * retryable `Timeout` and a caller's abort an abort.
 */
function itClassifiesFailures<R>(suite: ProviderSuite<R | CommonReply>, failures: FailureCase<R>[]): void {
  const dropped: FailureCase<CommonReply> = {
    name: 'a dropped connection',
    reply: { kind: 'drop' },
    type: 'ConnectionError',
    retryable: true,
  };
  for (const f of [...failures, dropped]) {
    it(`classifies ${f.name} as ${f.type} (${f.retryable ? 'retryable' : 'final'}), the key scrubbed`, async () => {
      suite.server().script(f.reply);
      const e = await rejection(suite.summarize()(chatRequest()));
      assert.ok(e instanceof SummarizerCallError, `${e.name}: ${e.message}`);
      assert.equal(e.type, f.type);
      assert.equal(e.retryable, f.retryable);
      assert.equal(e.retryAfterMs, f.retryAfterMs);
      assert.ok(!JSON.stringify({ ...e, message: e.message }).includes(suite.key.value), 'the key is in no field');
      assert.equal(suite.server().requests.length, 1, 'the SDK does not retry by itself');
    });
  }
  it('times out as a retryable Timeout, and an abort by the caller is an abort', async () => {
    suite.server().script({ kind: 'slow', ms: 5000 }, { kind: 'slow', ms: 5000 });
    const timedOut = await rejection(suite.summarize({ timeoutMs: 200 })(chatRequest()));
    assert.ok(timedOut instanceof SummarizerCallError, `${timedOut.name}: ${timedOut.message}`);
    assert.equal(timedOut.type, 'Timeout');
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const aborted = await rejection(suite.summarize()(chatRequest(), { signal: controller.signal }));
    assert.ok(aborted instanceof SummarizerAbortedError, `${aborted.name}: ${aborted.message}`);
  });
}

/**
 * Registers, in the calling `describe`, what every provider mode must do alike: ask again after a reply cut at the
 * output limit and fail unfolded after two; read the key from its variable by default and name the variable when it
 * is missing, before any request; classify the provider's failures and its final answers to 400, 401 and 403
 * ({@link itClassifiesFailures}).
 * @param input.cutAt the provider's name of the cut, for the test's title
 * @param input.cutTwice two replies the provider cuts
 */
export function itBehavesLikeAProvider<R>(
  suite: ProviderSuite<R | CommonReply>,
  input: {
    /** The provider's retryable failures; the final ones come from `finalNames` and `finalReply`. */
    failures: FailureCase<R>[];
    finalNames: Record<400 | 401 | 403, string>;
    finalReply: (status: number, name: string) => R;
    cutAt: string;
    cutTwice: [R, R];
  }
): void {
  it(`asks again after a reply cut at ${input.cutAt}, and fails unfolded after two`, async () => {
    suite.server().script(...input.cutTwice);
    assertIncompleteTwice(await suite.summarize()(chatRequest()), suite.server().requests.length);
  });

  it(`reads the key from ${suite.key.variable} by default and names the variable when it is missing`, async () => {
    const e = await rejection(suite.summarize({}, {})(chatRequest()));
    assert.ok(e instanceof SummarizerCallError);
    assert.match(e.message, new RegExp(`${suite.key.variable} is not set`));
    assert.equal(suite.server().requests.length, 0);
  });

  itClassifiesFailures(suite, [...input.failures, ...finalStatusFailures(input.finalNames, input.finalReply)]);
}

/** The final answers (400, 401, 403) every provider gives, each by its own error name, classified alike. */
function finalStatusFailures<R>(
  names: Record<400 | 401 | 403, string>,
  reply: (status: number, name: string) => R
): FailureCase<R>[] {
  const types = { 400: 'BadRequest', 401: 'Unauthorized', 403: 'Forbidden' } as const;
  return ([400, 401, 403] as const).map((status) => ({
    name: `${status} ${names[status]}`,
    reply: reply(status, names[status]),
    type: types[status],
    retryable: false,
  }));
}

/** A provider server per test and a summarizer factory pointed at it ({@link useProviderSummarizer}). */
export interface ProviderSuite<R> {
  /** The running test's server. @throws Error outside a test */
  server: () => ProviderServer<R>;
  /** A summarizer of the suite's mode and model with `config` on top; `envOverride` replaces the key's environment. */
  summarize: (config?: SummarizerConfig, envOverride?: NodeJS.ProcessEnv) => Summarizer;
  /** The environment variable the mode reads its key from, and the key the suite puts there. */
  key: { variable: string; value: string };
}

/**
 * A fresh provider server before each test of the calling `describe`, closed after it, and a summarizer of `base`
 * (mode, model) pointed at it with only `key` in its environment.
 * @returns the suite: the running test's server, the summarizer factory, the key
 */
export function useProviderSummarizer<R>(
  start: () => Promise<ProviderServer<R>>,
  base: SummarizerConfig,
  key: { variable: string; value: string }
): ProviderSuite<R> {
  let current: ProviderServer<R> | undefined;
  beforeEach(async () => (current = await start()));
  afterEach(() => current?.close());
  const server = (): ProviderServer<R> => {
    if (!current) throw new Error('useProviderSummarizer: the server runs only while a test runs');
    return current;
  };
  return {
    server,
    key,
    summarize: (config = {}, envOverride = { [key.variable]: key.value }) =>
      createSummarizer(
        { ...base, baseURL: server().origin, ...config },
        { counterFor: testCounterFor, env: envOverride }
      ),
  };
}

/** Asserts a fold failed unfolded as `incomplete` after its two attempts, each one request. */
export function assertIncompleteTwice(res: SummarizeResult, requests: number): void {
  assert.equal(res.ok, false);
  if (res.ok) return;
  assert.equal(res.kind, 'incomplete');
  assert.equal(res.attempts, 2);
  assert.equal(requests, 2);
}

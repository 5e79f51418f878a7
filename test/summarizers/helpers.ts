import type { SummarizeRequest, SummarizerConfig, SummarizeResult } from '../../src/summarizers';
import { createSummarizer } from '../../src/summarizers';
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

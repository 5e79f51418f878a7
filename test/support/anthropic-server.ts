/**
 * A local server speaking the Anthropic Messages API (`POST /v1/messages`) for tests, so the real `@anthropic-ai/sdk`
 * is exercised over HTTP. Unknown routes and methods get Anthropic's 404 error body.
 */
import { startProviderServer, type Answer, type ProviderServer } from './provider-server';

/** One scripted reply. */
export type AnthropicReply =
  | {
      kind: 'text';
      text: string;
      stop?: 'end_turn' | 'max_tokens' | 'refusal';
      /** A thinking block (with a signature) before the text. */
      thinking?: string;
      usage?: { input: number; output: number; cacheRead?: number };
    }
  | { kind: 'status'; status: number; type: string; message?: string; headers?: Record<string, string> }
  | { kind: 'slow'; ms: number; text?: string }
  | { kind: 'drop' };

function errorBody(type: string, message: string): unknown {
  return { type: 'error', error: { type, message } };
}

function message(n: number, reply: Extract<AnthropicReply, { kind: 'text' }>): unknown {
  const usage = reply.usage ?? { input: 100, output: 20 };
  return {
    id: `msg_${n}`,
    type: 'message',
    role: 'assistant',
    model: 'claude-test',
    content: [
      ...(reply.thinking ? [{ type: 'thinking', thinking: reply.thinking, signature: `sig-${n}` }] : []),
      { type: 'text', text: reply.text, citations: null },
    ],
    stop_reason: reply.stop ?? 'end_turn',
    stop_sequence: null,
    usage: {
      input_tokens: usage.input,
      output_tokens: usage.output,
      cache_read_input_tokens: usage.cacheRead ?? null,
      cache_creation_input_tokens: null,
    },
  };
}

function answerOf(reply: AnthropicReply | undefined, n: number): Answer {
  if (!reply) return { status: 500, body: errorBody('api_error', 'the test script has no reply left') };
  switch (reply.kind) {
    case 'text':
      return { status: 200, body: message(n, reply) };
    case 'status':
      return {
        status: reply.status,
        body: errorBody(reply.type, reply.message ?? `status ${reply.status}`),
        ...(reply.headers ? { headers: reply.headers } : {}),
      };
    case 'slow':
      return {
        afterMs: reply.ms,
        then: { status: 200, body: message(n, { kind: 'text', text: reply.text ?? 'late' }) },
      };
    case 'drop':
      return { drop: true };
  }
}

/** The server's token count of a text: a fixed 7 per request plus one per 3 characters. */
export function serverTokens(text: string): number {
  return 7 + Math.ceil(text.length / 3);
}

/** Options of {@link startAnthropicServer}. */
export interface AnthropicServerOptions {
  /** The first this many `count_tokens` requests answer 529 overloaded. @default 0 */
  failCounts?: number;
}

/**
 * `POST /v1/messages/count_tokens` answers {@link serverTokens} of the one user text it is sent, unscripted.
 * @returns a running Anthropic-speaking server; its base URL for the SDK is `origin`
 */
export function startAnthropicServer(options: AnthropicServerOptions = {}): Promise<ProviderServer<AnthropicReply>> {
  let failures = options.failCounts ?? 0;
  return startProviderServer<AnthropicReply>({
    unscripted: (req) => {
      if (req.path !== '/v1/messages/count_tokens') return undefined;
      if (failures-- > 0) return { status: 529, body: errorBody('overloaded_error', 'Overloaded') };
      const messages = req.body?.messages as { role: string; content: string }[] | undefined;
      const text = messages?.length === 1 && typeof messages[0]?.content === 'string' ? messages[0].content : null;
      if (text === null) return { status: 400, body: errorBody('invalid_request_error', 'expected one text turn') };
      return { status: 200, body: { input_tokens: serverTokens(text) } };
    },
    answer: (reply, req, n) =>
      req.method === 'POST' && req.path === '/v1/messages'
        ? answerOf(reply, n)
        : { status: 404, body: errorBody('not_found_error', `no route ${req.method} ${req.path}`) },
  });
}

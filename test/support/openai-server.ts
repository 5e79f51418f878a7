/**
 * A local OpenAI-compatible server for tests: real HTTP on 127.0.0.1 and a random port, so the real `openai` client is
 * exercised end to end. It serves `/v1/chat/completions`, `/v1/responses` and `/v1/responses/compact` from a script of
 * replies (normal, empty, incomplete, oversize, function call, slow, HTTP status with headers, malformed JSON,
 * connection drop), records every request, and stops itself after a while if a test forgets to.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { listenOnLoopback } from './loopback-server';

/** Token usage the server reports. */
export interface ScriptUsage {
  input: number;
  output: number;
  cached?: number;
  reasoning?: number;
}

/** One scripted reply. */
export type ScriptedReply =
  | { kind: 'text'; text: string; usage?: ScriptUsage }
  | { kind: 'empty'; usage?: ScriptUsage }
  | { kind: 'incomplete'; text?: string; usage?: ScriptUsage }
  | { kind: 'oversize'; words: number; usage?: ScriptUsage }
  | { kind: 'function_call'; usage?: ScriptUsage }
  | { kind: 'slow'; ms: number; text?: string }
  | { kind: 'status'; status: number; message?: string; headers?: Record<string, string> }
  | { kind: 'malformed' }
  | { kind: 'drop' }
  /** `/responses/compact`: the input's user messages, then one compaction item of `size` characters. */
  | { kind: 'compaction'; size?: number; usage?: ScriptUsage };

/** A request as the server saw it. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** The parsed JSON body (undefined when none or not JSON). */
  body: Record<string, unknown> | undefined;
  /** The raw body text. */
  raw: string;
}

/** A running test server. */
export interface OpenAITestServer {
  /** Base URL for the client, e.g. `http://127.0.0.1:12345/v1`. */
  baseURL: string;
  requests: RecordedRequest[];
  /** Appends replies to the script. */
  script(...replies: ScriptedReply[]): void;
  /** Replies not yet used. */
  remaining(): number;
  /** Requests still waiting for their (slow) reply. */
  inFlight(): number;
  close(): Promise<void>;
}

/** Options of {@link startOpenAIServer}. */
export interface OpenAITestServerOptions {
  /** Stop by itself after this long, ms. @default 120000 */
  lifetimeMs?: number;
  /** Largest accepted request body, bytes. @default 8 MiB */
  maxBodyBytes?: number;
  /** The reply when the script is empty (say, a slow model that always answers). @default a 500 error */
  fallback?: () => ScriptedReply;
  /** The address it listens on (the cluster suite's worker hosts reach it on the cluster's address). @default 127.0.0.1 */
  host?: string;
}

const DEFAULT_USAGE: ScriptUsage = { input: 100, output: 20 };

function chatBody(n: number, content: string | null, finish: string, usage: ScriptUsage, toolCall = false): unknown {
  return {
    id: `chatcmpl-${n}`,
    object: 'chat.completion',
    created: 1_700_000_000,
    model: 'test-model',
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content,
          refusal: null,
          ...(toolCall
            ? {
                tool_calls: [
                  { id: `call_t${n}`, type: 'function', function: { name: 'lookup', arguments: '{"q":"x"}' } },
                ],
              }
            : {}),
        },
        finish_reason: finish,
        logprobs: null,
      },
    ],
    usage: {
      prompt_tokens: usage.input,
      completion_tokens: usage.output,
      total_tokens: usage.input + usage.output,
      ...(usage.cached !== undefined ? { prompt_tokens_details: { cached_tokens: usage.cached } } : {}),
      ...(usage.reasoning !== undefined ? { completion_tokens_details: { reasoning_tokens: usage.reasoning } } : {}),
    },
  };
}

function responsesUsage(usage: ScriptUsage): unknown {
  return {
    input_tokens: usage.input,
    output_tokens: usage.output,
    total_tokens: usage.input + usage.output,
    input_tokens_details: { cached_tokens: usage.cached ?? 0 },
    output_tokens_details: { reasoning_tokens: usage.reasoning ?? 0 },
  };
}

function responseBody(n: number, output: unknown[], status: string, usage: ScriptUsage, reason?: string): unknown {
  return {
    id: `resp_${n}`,
    object: 'response',
    created_at: 1_700_000_000,
    model: 'test-model',
    status,
    incomplete_details: reason ? { reason } : null,
    error: null,
    output,
    usage: responsesUsage(usage),
  };
}

function messageOutput(n: number, text: string): unknown {
  return {
    type: 'message',
    id: `msg_${n}`,
    role: 'assistant',
    status: 'completed',
    content: [{ type: 'output_text', text, annotations: [] }],
  };
}

function textOf(reply: ScriptedReply): { text: string; finish: 'stop' | 'length'; call: boolean } {
  switch (reply.kind) {
    case 'text':
      return { text: reply.text, finish: 'stop', call: false };
    case 'incomplete':
      return { text: reply.text ?? 'A summary that was cut', finish: 'length', call: false };
    case 'oversize':
      return { text: Array.from({ length: reply.words }, (_, i) => `word${i}`).join(' '), finish: 'stop', call: false };
    case 'function_call':
      return { text: '', finish: 'stop', call: true };
    default:
      return { text: '', finish: 'stop', call: false };
  }
}

function replyJson(path: string, n: number, reply: ScriptedReply, body: Record<string, unknown> | undefined): unknown {
  const usage = ('usage' in reply && reply.usage) || DEFAULT_USAGE;
  const { text, finish, call } = textOf(reply);
  if (path.endsWith('/chat/completions')) {
    return chatBody(n, call ? null : text, call ? 'tool_calls' : finish, usage, call);
  }
  if (path.endsWith('/responses/compact')) {
    const input = Array.isArray(body?.input) ? (body.input as Record<string, unknown>[]) : [];
    const users = input.filter((i) => i.role === 'user' && (i.type === undefined || i.type === 'message'));
    const output =
      reply.kind === 'empty'
        ? []
        : [
            ...users,
            {
              type: 'compaction',
              id: `cmp_${n}`,
              encrypted_content: 'x'.repeat(reply.kind === 'compaction' ? (reply.size ?? 64) : 64),
            },
          ];
    return {
      id: `resp_${n}`,
      object: 'response.compaction',
      created_at: 1_700_000_000,
      output,
      usage: responsesUsage(usage),
    };
  }
  const output = call
    ? [
        {
          type: 'function_call',
          id: `fc_${n}`,
          call_id: `call_t${n}`,
          name: 'lookup',
          arguments: '{}',
          status: 'completed',
        },
      ]
    : text
      ? [messageOutput(n, text)]
      : [];
  return finish === 'length'
    ? responseBody(n, output, 'incomplete', usage, 'max_output_tokens')
    : responseBody(n, output, 'completed', usage);
}

/**
 * Starts a server on 127.0.0.1 (random port).
 *
 * @returns the running server; call `close()` in `after`
 */
export async function startOpenAIServer(options: OpenAITestServerOptions = {}): Promise<OpenAITestServer> {
  const maxBody = options.maxBodyBytes ?? 8 * 1024 * 1024;
  const queue: ScriptedReply[] = [];
  const requests: RecordedRequest[] = [];
  const pending = new Set<NodeJS.Timeout>();
  let served = 0;

  const handle = (req: IncomingMessage, res: ServerResponse, raw: string): void => {
    let body: Record<string, unknown> | undefined;
    try {
      body = raw ? (JSON.parse(raw) as Record<string, unknown>) : undefined;
    } catch {
      body = undefined;
    }
    const path = (req.url ?? '').split('?')[0] ?? '';
    requests.push({ method: req.method ?? '', path, headers: { ...req.headers }, body, raw });
    const known = ['/v1/chat/completions', '/v1/responses', '/v1/responses/compact'];
    if (req.method !== 'POST' || !known.includes(path)) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `no route ${req.method} ${path}`, type: 'invalid_request_error' } }));
      return;
    }
    const reply = queue.shift() ?? options.fallback?.();
    served += 1;
    if (!reply) {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'the test script has no reply left', type: 'server_error' } }));
      return;
    }
    switch (reply.kind) {
      case 'status':
        res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
        res.end(JSON.stringify({ error: { message: reply.message ?? `status ${reply.status}`, type: 'test_error' } }));
        return;
      case 'malformed':
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"id": "chatcmpl-broken", "choices": [');
        return;
      case 'drop':
        req.socket.destroy();
        return;
      case 'slow': {
        // Answers after `ms` unless the client gives up first (abort or timeout closes the socket).
        const timer = setTimeout(() => {
          pending.delete(timer);
          if (!res.writableEnded && !res.destroyed) {
            res.writeHead(200, { 'content-type': 'application/json' });
            const text = reply.text ?? 'late summary';
            res.end(JSON.stringify(replyJson(path, served, { kind: 'text', text }, body)));
          }
        }, reply.ms);
        pending.add(timer);
        res.on('close', () => {
          clearTimeout(timer);
          pending.delete(timer);
        });
        return;
      }
      default:
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(replyJson(path, served, reply, body)));
    }
  };

  const host = options.host ?? '127.0.0.1';
  const { port, close } = await listenOnLoopback(
    (req, res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      req.on('data', (c: Buffer) => {
        size += c.length;
        if (size > maxBody) {
          res.writeHead(413).end();
          req.destroy();
          return;
        }
        chunks.push(c);
      });
      req.on('end', () => {
        if (size <= maxBody) handle(req, res, Buffer.concat(chunks).toString('utf8'));
      });
    },
    {
      ...(options.lifetimeMs !== undefined ? { lifetimeMs: options.lifetimeMs } : {}),
      host,
      onClose: () => pending.forEach(clearTimeout),
    }
  );

  return {
    baseURL: `http://${host}:${port}/v1`,
    requests,
    script: (...replies) => void queue.push(...replies),
    remaining: () => queue.length,
    inFlight: () => pending.size,
    close,
  };
}

/**
 * Starts a fresh server before each test of the calling `describe` and closes it after the test.
 * @returns a handle on the running test's server: read its members inside tests (it throws outside one).
 */
export function useOpenAIServer(options?: OpenAITestServerOptions): OpenAITestServer {
  let current: OpenAITestServer | undefined;
  beforeEach(async () => {
    current = await startOpenAIServer(options);
  });
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  const now = (): OpenAITestServer => {
    if (!current) throw new Error('useOpenAIServer: the server runs only while a test of its describe runs');
    return current;
  };
  return {
    get baseURL() {
      return now().baseURL;
    },
    get requests() {
      return now().requests;
    },
    script: (...replies) => now().script(...replies),
    remaining: () => now().remaining(),
    inFlight: () => now().inFlight(),
    close: () => now().close(),
  };
}

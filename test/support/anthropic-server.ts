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
  | {
      kind: 'compaction';
      /** The block returned, sent as given. @default a signed block summarising in one sentence */
      block?: Record<string, unknown>;
      usage?: { input: number; output: number };
    }
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

/** The beta and the only body fields a compaction request may carry (the SDK's `compaction` parameter). */
const COMPACTION_BETA = 'compact-2026-09-04';
const COMPACTION_FIELDS = new Set(['model', 'max_tokens', 'system', 'messages', 'compaction']);

/**
 * Checks a compaction request field by field, as the SDK's types document it: the beta header, `compaction:
 * {type: 'summarize'}` (optional string `instructions`), no `context_management` or `tools` (not combinable with it),
 * a model, a positive `max_tokens`, a string `system` if any, and user/assistant turns opening with a user turn.
 * @returns what is wrong, empty when nothing is
 */
export function compactionRequestProblems(req: {
  headers: Record<string, unknown>;
  body?: Record<string, unknown>;
}): string[] {
  const problems: string[] = [];
  const body = req.body ?? {};
  const header = req.headers['anthropic-beta'];
  const betas = (typeof header === 'string' ? header : '').split(',').map((b) => b.trim());
  if (!betas.includes(COMPACTION_BETA)) problems.push(`anthropic-beta lacks ${COMPACTION_BETA}`);
  for (const k of Object.keys(body)) if (!COMPACTION_FIELDS.has(k)) problems.push(`unexpected field '${k}'`);
  const c = body.compaction as Record<string, unknown> | null;
  if (!c || typeof c !== 'object' || c.type !== 'summarize') problems.push("compaction.type is not 'summarize'");
  else if (Object.keys(c).some((k) => k !== 'type' && k !== 'instructions')) problems.push('compaction has extra keys');
  else if (c.instructions !== undefined && typeof c.instructions !== 'string') problems.push('instructions not text');
  if (typeof body.model !== 'string' || body.model === '') problems.push('model missing');
  if (!Number.isInteger(body.max_tokens) || (body.max_tokens as number) < 1) problems.push('max_tokens not positive');
  if (body.system !== undefined && typeof body.system !== 'string') problems.push('system is not a string');
  const messages = body.messages as { role?: unknown; content?: unknown }[] | undefined;
  if (!Array.isArray(messages) || messages.length === 0) problems.push('messages empty');
  else {
    if (messages[0]?.role !== 'user') problems.push('the first turn is not a user turn');
    messages.forEach((m, i) => {
      if (m.role !== 'user' && m.role !== 'assistant') problems.push(`messages[${i}].role is ${String(m.role)}`);
      if (typeof m.content !== 'string' && !Array.isArray(m.content)) problems.push(`messages[${i}].content bad`);
    });
  }
  return problems;
}

function compactionMessage(n: number, reply: Extract<AnthropicReply, { kind: 'compaction' }>): unknown {
  const usage = reply.usage ?? { input: 900, output: 40 };
  const block = reply.block ?? {
    type: 'compaction',
    content: 'The user asked for a refactor of lib/app.ex; it was done.',
    encrypted_content: `enc-${n}`,
    signature: `sig-${n}`,
  };
  return {
    id: `msg_${n}`,
    type: 'message',
    role: 'assistant',
    model: 'claude-test',
    content: [block],
    stop_reason: 'compaction',
    stop_sequence: null,
    usage: { input_tokens: usage.input, output_tokens: usage.output },
  };
}

function answerOf(reply: AnthropicReply | undefined, n: number): Answer {
  if (!reply) return { status: 500, body: errorBody('api_error', 'the test script has no reply left') };
  switch (reply.kind) {
    case 'text':
      return { status: 200, body: message(n, reply) };
    case 'compaction':
      return { status: 200, body: compactionMessage(n, reply) };
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
    answer: (reply, req, n) => {
      if (req.method !== 'POST' || !/^\/v1\/messages(\?beta=true)?$/.test(req.path))
        return { status: 404, body: errorBody('not_found_error', `no route ${req.method} ${req.path}`) };
      const problems = req.body?.compaction !== undefined ? compactionRequestProblems(req) : [];
      if (problems.length > 0) return { status: 400, body: errorBody('invalid_request_error', problems.join('; ')) };
      return answerOf(reply, n);
    },
  });
}

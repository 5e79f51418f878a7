/**
 * A local server speaking the Gemini API (`POST /v1beta/models/{model}:generateContent`) for tests, so the real
 * `@google/genai` SDK is exercised over HTTP. Errors carry Google's error body (`{error: {code, message, status,
 * details}}`).
 */
import { startProviderServer, type Answer, type ProviderServer } from './provider-server';

/** One scripted reply. */
export type GeminiReply =
  | {
      kind: 'text';
      text: string;
      finish?: 'STOP' | 'MAX_TOKENS' | 'SAFETY';
      /** A thought part before the text. */
      thought?: string;
      usage?: { prompt: number; candidates: number; thoughts?: number };
    }
  | { kind: 'status'; status: number; code: string; message?: string; retryDelay?: string }
  | { kind: 'slow'; ms: number; text?: string }
  | { kind: 'drop' };

function errorBody(status: number, code: string, message: string, retryDelay?: string): unknown {
  const details = retryDelay ? [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay }] : [];
  return { error: { code: status, message, status: code, details } };
}

function response(n: number, reply: Extract<GeminiReply, { kind: 'text' }>): unknown {
  const usage = reply.usage ?? { prompt: 100, candidates: 20 };
  return {
    candidates: [
      {
        content: {
          role: 'model',
          parts: [...(reply.thought ? [{ text: reply.thought, thought: true }] : []), { text: reply.text }],
        },
        finishReason: reply.finish ?? 'STOP',
        index: 0,
      },
    ],
    usageMetadata: {
      promptTokenCount: usage.prompt,
      candidatesTokenCount: usage.candidates,
      ...(usage.thoughts !== undefined ? { thoughtsTokenCount: usage.thoughts } : {}),
      totalTokenCount: usage.prompt + usage.candidates + (usage.thoughts ?? 0),
    },
    modelVersion: 'gemini-test',
    responseId: `resp-${n}`,
  };
}

function answerOf(reply: GeminiReply | undefined, n: number): Answer {
  if (!reply) return { status: 500, body: errorBody(500, 'INTERNAL', 'the test script has no reply left') };
  switch (reply.kind) {
    case 'text':
      return { status: 200, body: response(n, reply) };
    case 'status':
      return {
        status: reply.status,
        body: errorBody(reply.status, reply.code, reply.message ?? `status ${reply.status}`, reply.retryDelay),
      };
    case 'slow':
      return {
        afterMs: reply.ms,
        then: { status: 200, body: response(n, { kind: 'text', text: reply.text ?? 'late' }) },
      };
    case 'drop':
      return { drop: true };
  }
}

/** The route of one model's generateContent call. */
export const GENERATE = /^\/v1beta\/models\/([^/:]+):generateContent$/;

/** The route of one model's countTokens call. */
export const COUNT = /^\/v1beta\/models\/([^/:]+):countTokens$/;

/** The server's token count of a text: one per 3 characters, plus one. */
export function serverTokens(text: string): number {
  return 1 + Math.ceil(text.length / 3);
}

/**
 * `countTokens` answers {@link serverTokens} of the one user text it is sent, unscripted.
 * @returns a running Gemini-speaking server; its base URL for the SDK is `origin`
 */
export function startGeminiServer(): Promise<ProviderServer<GeminiReply>> {
  return startProviderServer<GeminiReply>({
    unscripted: (req) => {
      if (req.method !== 'POST' || !COUNT.test(req.path)) return undefined;
      const contents = req.body?.contents as { role: string; parts: { text?: string }[] }[] | undefined;
      const text = contents?.length === 1 ? contents[0]?.parts?.[0]?.text : undefined;
      if (typeof text !== 'string')
        return { status: 400, body: errorBody(400, 'INVALID_ARGUMENT', 'expected one text') };
      return { status: 200, body: { totalTokens: serverTokens(text) } };
    },
    answer: (reply, req, n) =>
      req.method === 'POST' && GENERATE.test(req.path)
        ? answerOf(reply, n)
        : { status: 404, body: errorBody(404, 'NOT_FOUND', `no route ${req.method} ${req.path}`) },
  });
}

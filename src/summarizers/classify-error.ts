/**
 * Classification of summary-call failures: what Temporal should retry (rate limits, server errors, timeouts, broken
 * connections, malformed responses) and what it must not (bad request, auth, permission, not found, unprocessable,
 * configuration). Messages name the cause (status and provider message) and are scrubbed of secrets.
 */
import * as anthropic from '@anthropic-ai/sdk';
import { ApiError as GeminiApiError } from '@google/genai';
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';

/** A classified failure of a summary call; the activity turns it into an `ApplicationFailure`. */
export class SummarizerCallError extends Error {
  override name = 'SummarizerCallError';
  constructor(
    message: string,
    /** The failure type (`RateLimited`, `ServerError`, `Unauthorized`, …), used as the ApplicationFailure type. */
    readonly type: string,
    readonly retryable: boolean,
    /** HTTP status when there was a response. */
    readonly status?: number,
    /** The provider's `retry-after` / `retry-after-ms`, in ms. */
    readonly retryAfterMs?: number
  ) {
    super(message);
  }
}

/** The request was aborted through the caller's signal (activity cancellation). */
export class SummarizerAbortedError extends Error {
  override name = 'SummarizerAbortedError';
}

/** Configuration that cannot work (missing API key, compact mode on a non-Responses transcript). Never retried. */
export class SummarizerConfigError extends SummarizerCallError {
  override name = 'SummarizerConfigError';
  /** @param type the failure type. @default 'SummarizerConfigError' */
  constructor(message: string, type = 'SummarizerConfigError') {
    super(message, type, false);
  }
}

const NON_RETRYABLE: Record<number, string> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  422: 'Unprocessable',
};

/** Longest delay honoured from `retry-after`, ms: a provider asking for more is retried on the policy's schedule. */
export const MAX_RETRY_AFTER_MS = 10 * 60_000;

/**
 * Reads `retry-after-ms`, then `retry-after` (seconds, or an HTTP date relative to `now`).
 *
 * @returns the delay in ms, or `undefined` when absent, unparsable, not positive, or above {@link MAX_RETRY_AFTER_MS}
 */
export function retryAfterMs(headers: Headers | undefined, now: number = Date.now()): number | undefined {
  if (!headers) return undefined;
  const ms = headers.get('retry-after-ms');
  let delay: number | undefined;
  if (ms !== null && ms.trim() !== '' && Number.isFinite(Number(ms))) delay = Number(ms);
  const ra = headers.get('retry-after');
  if (delay === undefined && ra !== null && ra.trim() !== '') {
    const seconds = Number(ra);
    if (Number.isFinite(seconds)) delay = seconds * 1000;
    else {
      const at = Date.parse(ra);
      if (Number.isFinite(at)) delay = at - now;
    }
  }
  if (delay === undefined || !(delay > 0) || delay > MAX_RETRY_AFTER_MS) return undefined;
  return Math.ceil(delay);
}

/**
 * Replaces every secret (and anything shaped like an OpenAI, Anthropic or Google API key) with `***`.
 *
 * @returns the scrubbed text
 */
export function redact(text: string, secrets: readonly string[] = []): string {
  let out = text;
  for (const s of secrets) if (s.length >= 4) out = out.split(s).join('***');
  return out.replace(/\bsk-[A-Za-z0-9_*-]{6,}/g, 'sk-***').replace(/\bAIza[A-Za-z0-9_-]{10,}/g, 'AIza***');
}

/** An HTTP error response, whichever SDK reported it. */
interface HttpFailure {
  status: number | undefined;
  headers: Headers | undefined;
  /** The provider's own message. */
  message: string;
  /** The provider's error type (`overloaded_error`, `RESOURCE_EXHAUSTED`, …), when it gave one. */
  providerType?: string;
  /** A retry delay the provider put in the body (Gemini's `RetryInfo.retryDelay`), ms. */
  bodyRetryAfterMs?: number;
}

/** What an SDK error means, before classification. */
type SdkFailure =
  { kind: 'abort' } | { kind: 'timeout' } | { kind: 'connection'; cause: string } | { kind: 'http'; http: HttpFailure };

function messageOf(body: unknown, fallback: string): string {
  const message = body !== null && typeof body === 'object' ? (body as { message?: unknown }).message : undefined;
  return typeof message === 'string' ? message : fallback;
}

function causeOf(err: { cause?: unknown }): string {
  return err.cause instanceof Error ? `: ${err.cause.message}` : '';
}

/** The OpenAI and Anthropic SDKs share their error classes' shape (both are generated the same way). */
function stainlessFailure(err: unknown): SdkFailure | undefined {
  if (err instanceof APIUserAbortError || err instanceof anthropic.APIUserAbortError) return { kind: 'abort' };
  if (err instanceof APIConnectionTimeoutError || err instanceof anthropic.APIConnectionTimeoutError) {
    return { kind: 'timeout' };
  }
  if (err instanceof APIConnectionError || err instanceof anthropic.APIConnectionError) {
    return { kind: 'connection', cause: causeOf(err) };
  }
  if (err instanceof anthropic.APIError) {
    const body = err.error as { error?: unknown } | undefined;
    const inner = body !== null && typeof body === 'object' ? body.error : undefined;
    return {
      kind: 'http',
      http: {
        status: err.status as number | undefined,
        headers: err.headers as Headers | undefined,
        message: err.apiMessage ?? messageOf(inner, err.message),
        ...(err.type ? { providerType: err.type } : {}),
      },
    };
  }
  if (err instanceof APIError) {
    const status = err.status as number | undefined;
    const headers = err.headers as Headers | undefined;
    return { kind: 'http', http: { status, headers, message: messageOf(err.error as unknown, err.message) } };
  }
  return undefined;
}

/** Gemini's `RetryInfo` delay (`"30s"`, `"1.5s"`) from an error body's details, ms. */
function geminiRetryDelay(details: unknown): number | undefined {
  if (!Array.isArray(details)) return undefined;
  for (const d of details as { retryDelay?: unknown }[]) {
    const m = typeof d?.retryDelay === 'string' ? /^(\d+(?:\.\d+)?)s$/.exec(d.retryDelay) : null;
    if (m) return Math.ceil(Number(m[1]) * 1000);
  }
  return undefined;
}

/** `@google/genai` puts the JSON error body in the message; a fetch abort is the caller's or the SDK's timeout. */
function geminiFailure(err: unknown, aborted: boolean): SdkFailure | undefined {
  if (err instanceof GeminiApiError) {
    let body: { error?: { message?: unknown; status?: unknown; details?: unknown } } | undefined;
    try {
      body = JSON.parse(err.message) as typeof body;
    } catch {
      body = undefined;
    }
    const retry = geminiRetryDelay(body?.error?.details);
    return {
      kind: 'http',
      http: {
        status: err.status,
        headers: undefined,
        message: messageOf(body?.error, err.message),
        ...(typeof body?.error?.status === 'string' ? { providerType: body.error.status } : {}),
        ...(retry !== undefined ? { bodyRetryAfterMs: retry } : {}),
      },
    };
  }
  if (err instanceof Error && (err.name === 'AbortError' || err.name === 'TimeoutError')) {
    return aborted ? { kind: 'abort' } : { kind: 'timeout' };
  }
  if (err instanceof TypeError && err.message === 'fetch failed') return { kind: 'connection', cause: causeOf(err) };
  return undefined;
}

function httpError(http: HttpFailure, secrets: readonly string[]): SummarizerCallError {
  const { status } = http;
  const what = redact(http.message, secrets);
  if (status === undefined) return new SummarizerCallError(`provider error: ${what}`, 'ProviderError', true);
  const nonRetryable = NON_RETRYABLE[status];
  if (nonRetryable) {
    return new SummarizerCallError(
      `provider rejected the summary request (${status}): ${what}`,
      nonRetryable,
      false,
      status
    );
  }
  const delay = retryAfterMs(http.headers) ?? boundedDelay(http.bodyRetryAfterMs);
  if (status === 429) return new SummarizerCallError(`rate limited (429): ${what}`, 'RateLimited', true, status, delay);
  if (status === 529 || http.providerType === 'overloaded_error') {
    return new SummarizerCallError(`provider overloaded (${status}): ${what}`, 'Overloaded', true, status, delay);
  }
  if (status >= 500 || status === 408 || status === 409) {
    return new SummarizerCallError(`provider error (${status}): ${what}`, 'ServerError', true, status, delay);
  }
  return new SummarizerCallError(
    `provider rejected the summary request (${status}): ${what}`,
    'ClientError',
    false,
    status
  );
}

function boundedDelay(ms: number | undefined): number | undefined {
  return ms !== undefined && ms > 0 && ms <= MAX_RETRY_AFTER_MS ? ms : undefined;
}

/**
 * Classifies any error thrown while calling a provider, through the OpenAI, Anthropic or Gemini SDK.
 *
 * @param secrets strings that must not appear in the message (the API key)
 * @param aborted whether the caller's signal fired (tells a caller's abort from an SDK timeout where both look
 *   alike). @default false
 * @returns a {@link SummarizerCallError}, or a {@link SummarizerAbortedError} for a caller abort
 */
export function classifyError(
  err: unknown,
  secrets: readonly string[] = [],
  aborted = false
): SummarizerCallError | SummarizerAbortedError {
  if (err instanceof SummarizerCallError) return err;
  const failure = stainlessFailure(err) ?? geminiFailure(err, aborted);
  switch (failure?.kind) {
    case 'abort':
      return new SummarizerAbortedError('summary request aborted');
    case 'timeout':
      return new SummarizerCallError('summary request timed out', 'Timeout', true);
    case 'connection':
      return new SummarizerCallError(redact(`connection error${failure.cause}`, secrets), 'ConnectionError', true);
    case 'http':
      return httpError(failure.http, secrets);
  }
  if (err instanceof SyntaxError) {
    return new SummarizerCallError(
      redact(`malformed provider response: ${err.message}`, secrets),
      'MalformedResponse',
      true
    );
  }
  const message = err instanceof Error ? err.message : String(err);
  return new SummarizerCallError(redact(`summary call failed: ${message}`, secrets), 'UnknownError', true);
}

/**
 * Classification of summary-call failures: what Temporal should retry (rate limits, server errors, timeouts, broken
 * connections, malformed responses) and what it must not (bad request, auth, permission, not found, unprocessable,
 * configuration). Messages name the cause (status and provider message) and are scrubbed of secrets.
 */
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
 * Replaces every secret (and anything shaped like an OpenAI key) with `***`.
 *
 * @returns the scrubbed text
 */
export function redact(text: string, secrets: readonly string[] = []): string {
  let out = text;
  for (const s of secrets) if (s.length >= 4) out = out.split(s).join('***');
  return out.replace(/\bsk-[A-Za-z0-9_*-]{6,}/g, 'sk-***');
}

/** The fields of an `APIError` this module reads (the class is generic over `any`). */
interface HttpFailure {
  status: number | undefined;
  headers: Headers | undefined;
  error: unknown;
  message: string;
}

function providerMessage(err: HttpFailure): string {
  const body = err.error;
  const message = body !== null && typeof body === 'object' ? (body as { message?: unknown }).message : undefined;
  return typeof message === 'string' ? message : err.message;
}

/**
 * Classifies any error thrown while calling a provider.
 *
 * @param secrets strings that must not appear in the message (the API key)
 * @returns a {@link SummarizerCallError}, or a {@link SummarizerAbortedError} for a caller abort
 */
export function classifyError(
  err: unknown,
  secrets: readonly string[] = []
): SummarizerCallError | SummarizerAbortedError {
  if (err instanceof SummarizerCallError) return err;
  if (err instanceof APIUserAbortError) return new SummarizerAbortedError('summary request aborted');
  if (err instanceof APIConnectionTimeoutError) {
    return new SummarizerCallError('summary request timed out', 'Timeout', true);
  }
  if (err instanceof APIConnectionError) {
    const cause = err.cause instanceof Error ? `: ${err.cause.message}` : '';
    return new SummarizerCallError(redact(`connection error${cause}`, secrets), 'ConnectionError', true);
  }
  if (err instanceof APIError) {
    const http: HttpFailure = {
      status: err.status as number | undefined,
      headers: err.headers as Headers | undefined,
      error: err.error as unknown,
      message: err.message,
    };
    const status = http.status;
    const what = redact(providerMessage(http), secrets);
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
    if (status === 429) {
      return new SummarizerCallError(
        `rate limited (429): ${what}`,
        'RateLimited',
        true,
        status,
        retryAfterMs(http.headers)
      );
    }
    if (status >= 500 || status === 408 || status === 409) {
      return new SummarizerCallError(
        `provider error (${status}): ${what}`,
        'ServerError',
        true,
        status,
        retryAfterMs(http.headers)
      );
    }
    return new SummarizerCallError(
      `provider rejected the summary request (${status}): ${what}`,
      'ClientError',
      false,
      status
    );
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

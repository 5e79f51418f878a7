/**
 * Retries a database call through a connection failure, with exponential back-off. Safe for every archive call
 * because reads change nothing and writes are idempotent by number and content hash.
 */
import { ArchiveUnavailableError } from './archive';

/** How long the driver keeps trying before the call fails (the activity's own retries come on top). */
export interface RetryOptions {
  /** @default 6 */
  attempts?: number;
  /** First pause; doubled after each failure. @default 100 */
  initialDelayMs?: number;
  /** @default 2000 */
  maxDelayMs?: number;
}

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

/**
 * True for failures another attempt may cure: the network, the server restarting or out of connections, a
 * serialization failure or deadlock. Not for wrong credentials, a missing database or a bad statement. (The client
 * judges Temporal's answers apart: `isTransientServerAnswer`.)
 */
export function isTransientDatabaseError(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown } | null;
  const code = typeof e?.code === 'string' ? e.code : '';
  if (NETWORK_CODES.has(code)) return true;
  // SQLSTATE classes 08 (connection exception) and 57P01–03 (shutdown, crash, cannot connect now), 53300 (too many
  // connections), 40001 / 40P01 (serialization failure, deadlock).
  if (/^08/.test(code) || /^57P0[123]$/.test(code) || ['53300', '40001', '40P01'].includes(code)) return true;
  const message = typeof e?.message === 'string' ? e.message : '';
  return /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error/i.test(
    message
  );
}

/**
 * Runs `fn`, again after a transient failure, up to `attempts` times.
 * @throws ArchiveUnavailableError (with the last cause) when every attempt failed transiently; other errors at once.
 */
export async function withConnectionRetry<T>(
  what: string,
  fn: () => Promise<T>,
  options: RetryOptions = {}
): Promise<T> {
  const attempts = options.attempts ?? 6;
  let delay = options.initialDelayMs ?? 100;
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      if (!isTransientDatabaseError(err)) throw err;
      if (attempt >= attempts) {
        const why = err instanceof Error ? err.message : String(err);
        throw new ArchiveUnavailableError(`${what}: the database is unreachable after ${attempts} attempts (${why})`);
      }
      await new Promise((r) => setTimeout(r, delay));
      delay = Math.min(delay * 2, options.maxDelayMs ?? 2000);
    }
  }
}

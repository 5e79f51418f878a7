/**
 * The HTTP plumbing of the tests' provider servers (Anthropic, Gemini): real HTTP on 127.0.0.1 and a random port, a
 * script of replies consumed one per request, every request recorded, slow replies that end when the client gives
 * up, dropped connections, and a lifetime after which the server stops itself.
 */
import type { IncomingMessage } from 'node:http';
import { listenOnLoopback } from './loopback-server';
import type { RecordedRequest } from './openai-server';

/** What the server does with one request. */
export type Answer =
  | { status: number; body: unknown; headers?: Record<string, string> }
  | { drop: true }
  | { afterMs: number; then: Answer };

/** A running provider server with replies of type `R`. */
export interface ProviderServer<R> {
  /** The origin, e.g. `http://127.0.0.1:12345`. */
  origin: string;
  requests: RecordedRequest[];
  script(...replies: R[]): void;
  remaining(): number;
  close(): Promise<void>;
}

/** Options of {@link startProviderServer}. */
export interface ProviderServerOptions<R> {
  /** The answer to a request, given the next scripted reply (undefined when the script is empty). */
  answer: (reply: R | undefined, req: RecordedRequest, n: number) => Answer;
  /** Answers some requests without taking a scripted reply (count endpoints); `undefined` = scripted. */
  unscripted?: (req: RecordedRequest) => Answer | undefined;
  /** Stop by itself after this long, ms. @default 120000 */
  lifetimeMs?: number;
}

function record(req: IncomingMessage, raw: string): RecordedRequest {
  let body: Record<string, unknown> | undefined;
  try {
    body = raw ? (JSON.parse(raw) as Record<string, unknown>) : undefined;
  } catch {
    body = undefined;
  }
  return { method: req.method ?? '', path: req.url ?? '', headers: { ...req.headers }, body, raw };
}

/**
 * Starts a server on 127.0.0.1 (random port).
 * @returns the running server; call `close()` in `after`
 */
export async function startProviderServer<R>(options: ProviderServerOptions<R>): Promise<ProviderServer<R>> {
  const queue: R[] = [];
  const requests: RecordedRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const { port, close } = await listenOnLoopback(
    (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const recorded = record(req, Buffer.concat(chunks).toString('utf8'));
        requests.push(recorded);
        const send = (answer: Answer): void => {
          if ('drop' in answer) {
            req.socket.destroy();
          } else if ('afterMs' in answer) {
            const timer = setTimeout(() => {
              timers.delete(timer);
              if (!res.writableEnded && !res.destroyed) send(answer.then);
            }, answer.afterMs);
            timers.add(timer);
            res.on('close', () => clearTimeout(timer));
          } else {
            res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
            res.end(JSON.stringify(answer.body));
          }
        };
        send(options.unscripted?.(recorded) ?? options.answer(queue.shift(), recorded, requests.length));
      });
    },
    {
      ...(options.lifetimeMs !== undefined ? { lifetimeMs: options.lifetimeMs } : {}),
      onClose: () => timers.forEach(clearTimeout),
    }
  );
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    script: (...replies) => void queue.push(...replies),
    remaining: () => queue.length,
    close,
  };
}

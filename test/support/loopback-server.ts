/**
 * An HTTP server on 127.0.0.1 (or another local address) and a random port for the tests' fake providers: it tracks its sockets so `close()`
 * ends kept-alive and slow connections at once, and stops itself after a while if a test forgets to.
 */
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** A listening server. */
export interface LoopbackServer {
  port: number;
  /** Destroys every connection and stops listening (idempotent). */
  close(): Promise<void>;
}

/**
 * Starts listening.
 * @param options.lifetimeMs stop by itself after this long. @default 120000
 * @param options.onClose called once when the server closes (clear pending timers there)
 * @param options.host the address to listen on. @default '127.0.0.1'
 * @returns the running server
 */
export async function listenOnLoopback(
  listener: RequestListener,
  options: { lifetimeMs?: number; onClose?: () => void; host?: string } = {}
): Promise<LoopbackServer> {
  const sockets = new Set<Socket>();
  const server = createServer(listener);
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, options.host ?? '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  let closed: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closed ??= new Promise<void>((resolve) => {
      clearTimeout(lifetime);
      options.onClose?.();
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
    return closed;
  };
  const lifetime = setTimeout(() => void close(), options.lifetimeMs ?? 120_000);
  lifetime.unref();
  return { port, close };
}

import { connect } from 'node:net';

/** @returns true when something accepts TCP connections at host:port within `timeoutMs` (default 500). */
export function isListening(host: string, port: number, timeoutMs = 500): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (ok: boolean): void => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/**
 * Polls until host:port accepts connections.
 * @throws Error naming the address when it is not up within `timeoutMs`.
 */
export async function waitForPort(
  host: string,
  port: number,
  timeoutMs: number,
  isAlive: () => boolean = () => true
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await isListening(host, port)) return;
    if (!isAlive()) throw new Error(`the Temporal dev server exited before listening on ${host}:${port}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`the Temporal dev server did not listen on ${host}:${port} within ${timeoutMs} ms`);
}

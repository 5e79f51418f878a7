import { createServer, Socket, type Server } from 'node:net';

/** A TCP proxy to a database URL's server that can cut every connection and refuse new ones, then come back. */
export async function startProxy(
  target: URL
): Promise<{ url: string; cut(): void; restore(): void; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  let down = false;
  const server: Server = createServer((client) => {
    if (down) {
      client.destroy();
      return;
    }
    const upstream = new Socket();
    upstream.connect(Number(target.port), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => {});
    }
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  const url = new URL(target.toString());
  url.host = `127.0.0.1:${port}`;
  return {
    url: url.toString(),
    cut() {
      down = true;
      for (const s of sockets) s.destroy();
    },
    restore() {
      down = false;
    },
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

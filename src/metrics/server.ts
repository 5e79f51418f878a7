/**
 * The HTTP endpoint Prometheus scrapes: `GET /metrics` in the text exposition format; anything else is 404.
 */
import { createServer, type Server } from 'node:http';
import type { Registry } from 'prom-client';

/** A listening metrics endpoint. */
export interface MetricsServer {
  url: string;
  close(): Promise<void>;
}

/**
 * Serves `registry` on host:port.
 * @returns once listening.
 * @throws Error naming the address when the port cannot be bound (in use, no permission).
 */
export async function serveMetrics(registry: Registry, host: string, port: number): Promise<MetricsServer> {
  const server: Server = createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
      res.writeHead(404).end('not found: scrape /metrics\n');
      return;
    }
    registry.metrics().then(
      (body) => res.writeHead(200, { 'content-type': registry.contentType }).end(body),
      (err: unknown) => res.writeHead(500).end(String(err))
    );
  });
  await new Promise<void>((ok, fail) => {
    server.once('error', (err) =>
      fail(new Error(`metrics endpoint: cannot listen on ${host}:${port}: ${err.message}`))
    );
    server.listen(port, host, () => ok());
  });
  return {
    url: `http://${host}:${port}/metrics`,
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}

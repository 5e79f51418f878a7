/**
 * A codec server for the Temporal Web UI and CLI: `POST /encode` and `POST /decode` with the remote-codec protocol
 * (`{"payloads": [{"metadata": {k: base64}, "data": base64}]}`), CORS for the configured UI origins only. It decrypts
 * whatever it is sent, so it binds to the loopback address by default: expose it only where the people allowed to
 * read conversations can reach it.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Payload, PayloadCodec } from '@temporalio/common';

/** Options of {@link startCodecServer}. */
export interface CodecServerOptions {
  codec: PayloadCodec;
  /** @default '127.0.0.1' */
  host?: string;
  /** 0 = any free port. @default 8888 */
  port?: number;
  /** Origins allowed by CORS (the Temporal UI's address). @default none: only non-browser clients */
  origins?: readonly string[];
  /** Largest request body, bytes. @default 16 MiB */
  maxBodyBytes?: number;
}

/** A running codec server. */
export interface CodecServer {
  /** e.g. `http://127.0.0.1:8888` (the UI's and CLI's codec endpoint). */
  url: string;
  close(): Promise<void>;
}

/** A request the server refuses: status and message. */
class Refused extends Error {
  constructor(
    readonly status: number,
    message: string
  ) {
    super(message);
  }
}

interface JsonPayload {
  metadata?: Record<string, string>;
  data?: string;
}

function fromJson(p: unknown, index: number): Payload {
  if (typeof p !== 'object' || p === null) throw new Refused(400, `payloads[${index}] must be an object`);
  const { metadata = {}, data = '' } = p as JsonPayload;
  if (typeof metadata !== 'object' || metadata === null || typeof data !== 'string') {
    throw new Refused(400, `payloads[${index}] must have base64 'metadata' values and 'data'`);
  }
  const decoded: Record<string, Uint8Array> = {};
  for (const [k, v] of Object.entries(metadata)) {
    if (typeof v !== 'string') throw new Refused(400, `payloads[${index}].metadata.${k} must be base64`);
    decoded[k] = Buffer.from(v, 'base64');
  }
  return { metadata: decoded, data: Buffer.from(data, 'base64') };
}

function toJson(p: Payload): JsonPayload {
  const metadata: Record<string, string> = {};
  for (const [k, v] of Object.entries(p.metadata ?? {})) metadata[k] = Buffer.from(v).toString('base64');
  return { metadata, data: Buffer.from(p.data ?? new Uint8Array()).toString('base64') };
}

/** What the server drains of a body over the limit before it gives up on the caller and closes the connection. */
const DRAIN_FACTOR = 4;

/**
 * Reads the body, at most `limit` bytes. A longer one is read on (and dropped) so that the 413 answer reaches a caller
 * still sending, instead of a connection reset; past `DRAIN_FACTOR × limit` the connection is closed.
 */
function readBody(req: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const tooLarge = new Refused(413, `the body is over ${limit} bytes, the codec server's limit: send fewer payloads`);
    const declared = Number(req.headers['content-length'] ?? 0);
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
      else if (size > DRAIN_FACTOR * limit || declared > DRAIN_FACTOR * limit) {
        reject(tooLarge);
        req.destroy();
      }
    });
    req.on('end', () => (size > limit ? reject(tooLarge) : resolve(Buffer.concat(chunks).toString('utf8'))));
    req.on('error', reject);
  });
}

/** `null` → 'null', `[]` → 'an array', `'x'` → 'a string': what a value that is not the expected one was. */
function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'missing';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/**
 * Starts the server.
 * @returns the running server once it listens.
 */
export async function startCodecServer(options: CodecServerOptions): Promise<CodecServer> {
  const origins = new Set(options.origins ?? []);
  const limit = options.maxBodyBytes ?? 16 * 1024 * 1024;

  const cors = (req: IncomingMessage, res: ServerResponse): void => {
    const origin = req.headers.origin;
    if (origin === undefined || !origins.has(origin)) return;
    res.setHeader('Access-Control-Allow-Origin', origin);
    res.setHeader('Vary', 'Origin');
    res.setHeader('Access-Control-Allow-Methods', 'POST, OPTIONS');
    res.setHeader('Access-Control-Allow-Headers', 'Content-Type, X-Namespace, Authorization');
    res.setHeader('Access-Control-Allow-Credentials', 'true');
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    cors(req, res);
    const path = (req.url ?? '').split('?')[0]!.replace(/\/+$/, '');
    const op = path.endsWith('/encode') ? 'encode' : path.endsWith('/decode') ? 'decode' : undefined;
    if (req.method === 'OPTIONS') {
      res.writeHead(op ? 204 : 404).end();
      return;
    }
    if (!op) throw new Refused(404, `no route ${path || '/'}: use POST /encode or POST /decode`);
    if (req.method !== 'POST') throw new Refused(405, `${req.method ?? ''} ${path}: use POST`);
    // The body is read as JSON whatever Content-Type says: fetch() sends a string body as text/plain.
    let body: unknown;
    try {
      body = JSON.parse(await readBody(req, limit));
    } catch (err) {
      if (err instanceof Refused) throw err;
      throw new Refused(400, 'the body must be JSON: {"payloads": [...]}');
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      throw new Refused(400, `the body must be JSON: {"payloads": [...]}, got ${kindOf(body)}`);
    const list = (body as { payloads?: unknown }).payloads;
    if (!Array.isArray(list))
      throw new Refused(400, `the body must be JSON: {"payloads": [...]}, payloads is ${kindOf(list)}`);
    const payloads = list.map(fromJson);
    let result: Payload[];
    try {
      result = op === 'encode' ? await options.codec.encode(payloads) : await options.codec.decode(payloads);
    } catch (err) {
      throw new Refused(400, err instanceof Error ? err.message : String(err));
    }
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ payloads: result.map(toJson) }));
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      const status = err instanceof Refused ? err.status : 500;
      const message = err instanceof Refused ? err.message : 'internal error';
      if (!res.headersSent) res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ error: message }));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 8888, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

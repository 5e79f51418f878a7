/**
 * The bad-input catalogue of the codec server's HTTP surface: methods, paths, content types and bodies. Every bad
 * request is the caller's mistake and gets a 4xx answer with a clear JSON message (never a 500, never a reset); the
 * server keeps answering afterwards.
 */
import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { startCodecServerProcess } from '../support/codec';

const keys = `k1:${randomBytes(32).toString('base64')}`;

/** Sends one request with node:http (fetch would refuse some of these). @returns status, headers and body. */
function send(
  url: string,
  opts: { method?: string; path?: string; headers?: Record<string, string>; body?: string | Buffer }
): Promise<{ status: number; contentType: string | undefined; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}${opts.path ?? '/decode'}`, { method: opts.method ?? 'POST', headers: opts.headers });
    req.on('response', (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, contentType: res.headers['content-type'], text }));
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

const json = { 'Content-Type': 'application/json' };
const payload = (p: unknown): string => JSON.stringify({ payloads: [p] });

describe('bad-input catalogue: the codec server over HTTP', function () {
  this.timeout(120_000);
  let server: Awaited<ReturnType<typeof startCodecServerProcess>>;
  before(async () => {
    server = await startCodecServerProcess({ DC_CODEC_KEYS: keys, DC_CODEC_KEY_ID: 'k1' });
  });
  after(() => {
    server.child.kill('SIGTERM');
  });

  const cases: [what: string, req: Parameters<typeof send>[1], status: number, message: RegExp][] = [
    [
      'a null body',
      { headers: json, body: 'null' },
      400,
      /the body must be JSON: \{"payloads": \[\.\.\.\]\}, got null/,
    ],
    ['an array body', { headers: json, body: '[]' }, 400, /must be JSON: .*got an array/],
    ['a string body', { headers: json, body: '"payloads"' }, 400, /must be JSON: .*got a string/],
    ['a number body', { headers: json, body: '7' }, 400, /must be JSON: .*got a number/],
    ['an empty body', { headers: json, body: '' }, 400, /the body must be JSON/],
    ['malformed JSON', { headers: json, body: '{"payloads": [' }, 400, /the body must be JSON/],
    ['payloads not an array', { headers: json, body: '{"payloads": {"length": 1}}' }, 400, /payloads is an object/],
    ['no payloads', { headers: json, body: '{"payload": []}' }, 400, /payloads is missing/],
    ['a null payload', { headers: json, body: payload(null) }, 400, /payloads\[0\] must be an object/],
    ['metadata null', { headers: json, body: payload({ metadata: null }) }, 400, /payloads\[0\] must have/],
    ['data a number', { headers: json, body: payload({ data: 5 }) }, 400, /payloads\[0\] must have/],
    [
      'a metadata value a number',
      { headers: json, body: payload({ metadata: { encoding: 1 } }) },
      400,
      /metadata\.encoding must be base64/,
    ],
    [
      'an encrypted payload that is garbage',
      {
        headers: json,
        body: payload({ metadata: { encoding: Buffer.from('binary/encrypted').toString('base64') }, data: 'AAAA' }),
      },
      400,
      /./,
    ],
    [
      'a body over 16 MiB',
      { headers: json, body: Buffer.alloc(17 * 1024 * 1024, 0x20) },
      413,
      /the body is over 16777216 bytes/,
    ],
    [
      'form data',
      { headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'payloads=1' },
      400,
      /the body must be JSON/,
    ],
    ['GET', { method: 'GET' }, 405, /GET \/decode: use POST/],
    ['PUT', { method: 'PUT', headers: json, body: '{"payloads": []}' }, 405, /use POST/],
    ['DELETE', { method: 'DELETE', path: '/encode' }, 405, /use POST/],
    ['PATCH', { method: 'PATCH', headers: json, body: '{}' }, 405, /use POST/],
    [
      'an unknown path',
      { path: '/decrypt', headers: json, body: '{"payloads": []}' },
      404,
      /use POST \/encode or POST \/decode/,
    ],
    ['the root', { method: 'GET', path: '/' }, 404, /no route \//],
  ];

  it(`answers ${cases.length} bad requests with a 4xx and a JSON message, and keeps answering`, async () => {
    for (const [what, req, status, message] of cases) {
      const res = await send(server.url, req);
      assert.equal(res.status, status, `${what}: ${res.text}`);
      assert.equal(res.contentType, 'application/json', what);
      const body = JSON.parse(res.text) as { error: string };
      assert.match(body.error, message, what);
      assert.ok(!res.text.includes(keys.split(':')[1]!), what);
    }
    const ok = await send(server.url, { path: '/encode', headers: json, body: '{"payloads": []}' });
    assert.equal(ok.status, 200, ok.text);
    const charset = await send(server.url, {
      path: '/encode',
      headers: { 'Content-Type': 'application/json; charset=utf-8' },
      body: '{"payloads": []}',
    });
    assert.equal(charset.status, 200, charset.text);
    // The body is read as JSON whatever Content-Type says (fetch sends a string body as text/plain).
    for (const type of [undefined, 'text/plain;charset=UTF-8']) {
      const res = await send(server.url, {
        path: '/encode',
        headers: type === undefined ? {} : { 'Content-Type': type },
        body: '{"payloads": []}',
      });
      assert.equal(res.status, 200, `${type}: ${res.text}`);
    }
    const head = await send(server.url, { method: 'HEAD' });
    assert.equal(head.status, 405);
  });
});

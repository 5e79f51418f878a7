/**
 * `durable-compaction codec-server` as a process over HTTP: /encode and /decode with the remote-codec JSON protocol,
 * CORS for the configured UI origin only, and clear errors.
 */
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { AesGcmPayloadCodec } from '../../src/codec/aes-gcm-codec';
import { readCodecKeys } from '../../src/config/encryption-keys';
import { startCodecServerProcess } from '../support/codec';

const root = join(__dirname, '..', '..');
const keys = `k1:${randomBytes(32).toString('base64')},k2:${randomBytes(32).toString('base64')}`;
const UI = 'http://localhost:8233';

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

describe('durable-compaction codec-server (a process over HTTP)', function () {
  this.timeout(60_000);
  let server: Awaited<ReturnType<typeof startCodecServerProcess>>;
  before(async () => {
    server = await startCodecServerProcess({ DC_CODEC_KEYS: keys, DC_CODEC_KEY_ID: 'k2' });
  });
  after(() => {
    server.child.kill('SIGTERM');
  });

  const plain = {
    metadata: { encoding: Buffer.from('json/plain').toString('base64') },
    data: Buffer.from(JSON.stringify({ text: 'order 4711 ships Tuesday' })).toString('base64'),
  };

  it('encodes with the configured key and decodes back, as the Temporal UI calls it', async () => {
    const enc = await post(`${server.url}/encode`, { payloads: [plain] }, { 'X-Namespace': 'default', Origin: UI });
    assert.equal(enc.status, 200);
    assert.equal(enc.headers.get('access-control-allow-origin'), UI);
    const encoded = (await enc.json()) as { payloads: { metadata: Record<string, string>; data: string }[] };
    const meta = encoded.payloads[0]!.metadata;
    assert.equal(Buffer.from(meta.encoding!, 'base64').toString(), 'binary/encrypted');
    assert.equal(Buffer.from(meta['encryption-key-id']!, 'base64').toString(), 'k2');
    assert.ok(!Buffer.from(encoded.payloads[0]!.data, 'base64').toString('latin1').includes('4711'));
    const dec = await post(`${server.url}/decode`, encoded, { 'X-Namespace': 'default' });
    assert.equal(dec.status, 200);
    assert.deepEqual(await dec.json(), { payloads: [plain] });
  });

  it('decodes what the worker-side codec encrypted with an older key id', async () => {
    const codec = new AesGcmPayloadCodec(readCodecKeys('K', 'k1', { K: keys }));
    const [p] = await codec.encode([{ metadata: { encoding: Buffer.from('json/plain') }, data: Buffer.from('"hi"') }]);
    const body = {
      payloads: [
        {
          metadata: Object.fromEntries(
            Object.entries(p!.metadata!).map(([k, v]) => [k, Buffer.from(v).toString('base64')])
          ),
          data: Buffer.from(p!.data!).toString('base64'),
        },
      ],
    };
    const res = (await (await post(`${server.url}/decode`, body)).json()) as { payloads: { data: string }[] };
    assert.equal(Buffer.from(res.payloads[0]!.data, 'base64').toString(), '"hi"');
  });

  it('answers CORS preflights for the configured UI origin only', async () => {
    const ok = await fetch(`${server.url}/decode`, {
      method: 'OPTIONS',
      headers: {
        Origin: UI,
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'x-namespace,content-type',
      },
    });
    assert.equal(ok.status, 204);
    assert.equal(ok.headers.get('access-control-allow-origin'), UI);
    assert.match(ok.headers.get('access-control-allow-headers') ?? '', /X-Namespace/);
    assert.match(ok.headers.get('access-control-allow-methods') ?? '', /POST/);
    const other = await fetch(`${server.url}/decode`, {
      method: 'OPTIONS',
      headers: { Origin: 'http://evil.example' },
    });
    assert.equal(other.headers.get('access-control-allow-origin'), null);
  });

  it('refuses bad requests with a clear message and no key material', async () => {
    const unknownKey = {
      payloads: [
        {
          metadata: {
            encoding: Buffer.from('binary/encrypted').toString('base64'),
            'encryption-key-id': Buffer.from('k9').toString('base64'),
          },
          data: Buffer.from('x'.repeat(40)).toString('base64'),
        },
      ],
    };
    const cases: [Promise<Response>, number, RegExp][] = [
      [
        post(`${server.url}/decode`, unknownKey),
        400,
        /encrypted with key 'k9', which is not configured \(keys: k1, k2\)/,
      ],
      [fetch(`${server.url}/decode`, { method: 'POST', body: 'not json' }), 400, /the body must be JSON/],
      [post(`${server.url}/decode`, { payload: [] }), 400, /the body must be JSON/],
      [fetch(`${server.url}/decode`), 405, /use POST/],
      [post(`${server.url}/elsewhere`, { payloads: [] }), 404, /use POST \/encode or POST \/decode/],
    ];
    for (const [response, status, message] of cases) {
      const res = await response;
      const text = await res.text();
      assert.equal(res.status, status, text);
      assert.match(text, message);
      for (const k of keys.split(',')) assert.ok(!text.includes(k.split(':')[1]!));
    }
  });

  it('refuses to start without keys, naming the variable', async () => {
    const child = spawn(join(root, 'bin', 'durable-compaction'), ['codec-server', '--port', '0'], {
      cwd: root,
      env: { ...process.env, DC_CONFIG: join(root, 'temporal.yaml'), DC_CODEC_KEYS: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    const code = await new Promise<number | null>((r) => child.once('exit', r));
    assert.equal(code, 1);
    assert.match(err, /environment variable DC_CODEC_KEYS holds no keys/);
  });
});

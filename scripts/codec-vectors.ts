/**
 * Test vectors of the AES-256-GCM payload codec for clients in other languages (clients/python). `make` prints
 * payloads encrypted by this (the worker's) codec, with the keys and the plaintext payloads they hold; `decode` reads
 * `{"keys": "id:base64,…", "payloads": [payload…]}` on stdin and prints the payloads this codec decodes from them
 * (payloads as `{"metadata": {name: base64}, "data": base64}`), so a client's encoder is checked against this
 * decoder. The checked-in vectors (clients/python/tests/vectors/aes-gcm.json) are checked by
 * test/codec/codec-vectors.test.ts.
 */
import { readFileSync } from 'node:fs';
import { defaultPayloadConverter, type Payload } from '@temporalio/common';
import { AesGcmPayloadCodec } from '../src/codec/aes-gcm-codec';
import { readCodecKeys } from '../src/config/encryption-keys';

/** A payload as JSON: metadata values and data in base64. */
export interface PayloadJson {
  metadata: Record<string, string>;
  data: string;
}

/** Fixed test keys (never used outside tests): two, so vectors written before a rotation are covered. */
export const VECTOR_KEYS =
  'old-key:' + Buffer.alloc(32, 7).toString('base64') + ',new.key_2:' + Buffer.alloc(32, 0xa5).toString('base64');

/** What the vectors hold: JSON of every kind, text beyond ASCII, an empty string, a large value, and binary. */
const VALUES: unknown[] = [
  { messages: [{ role: 'user', content: 'hello' }], writer: 'py-1', clientSeq: 0, protocol: 1 },
  'Grüße, 日本語, emoji 🚀 and a tab\t',
  '',
  [1, 2.5, null, true, { nested: { deep: ['x'] } }],
  { text: 'long '.repeat(1000) },
  new Uint8Array([0, 1, 2, 250, 255]),
];

export const toJson = (p: Payload): PayloadJson => ({
  metadata: Object.fromEntries(
    Object.entries(p.metadata ?? {}).map(([k, v]) => [k, Buffer.from(v ?? new Uint8Array()).toString('base64')])
  ),
  data: Buffer.from(p.data ?? new Uint8Array()).toString('base64'),
});

export const fromJson = (p: PayloadJson): Payload => ({
  metadata: Object.fromEntries(Object.entries(p.metadata).map(([k, v]) => [k, Buffer.from(v, 'base64')])),
  data: Buffer.from(p.data, 'base64'),
});

export const codecFor = (keys: string, keyId = ''): AesGcmPayloadCodec =>
  new AesGcmPayloadCodec(readCodecKeys('DC_CODEC_KEYS', keyId, { DC_CODEC_KEYS: keys }));

/** @returns the vectors: each plaintext payload and its encryption, by both keys. */
export async function makeVectors(): Promise<{
  keys: string;
  vectors: { plain: PayloadJson; encoded: PayloadJson }[];
}> {
  const plain = VALUES.map((v) => defaultPayloadConverter.toPayload(v));
  const vectors: { plain: PayloadJson; encoded: PayloadJson }[] = [];
  for (const keyId of ['old-key', 'new.key_2']) {
    const encoded = await codecFor(VECTOR_KEYS, keyId).encode(plain);
    encoded.forEach((e, i) => vectors.push({ plain: toJson(plain[i]!), encoded: toJson(e) }));
  }
  return { keys: VECTOR_KEYS, vectors };
}

async function main(mode: string | undefined): Promise<void> {
  if (mode === 'make') {
    process.stdout.write(`${JSON.stringify(await makeVectors(), null, 1)}\n`);
  } else if (mode === 'decode') {
    const input = JSON.parse(readFileSync(0, 'utf8')) as { keys: string; payloads: PayloadJson[] };
    const decoded = await codecFor(input.keys).decode(input.payloads.map(fromJson));
    process.stdout.write(`${JSON.stringify(decoded.map(toJson))}\n`);
  } else {
    throw new Error('usage: codec-vectors.ts make | decode (payloads on stdin)');
  }
}

if (require.main === module) {
  main(process.argv[2]).catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}

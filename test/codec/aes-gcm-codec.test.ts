import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import { defaultPayloadConverter, type Payload } from '@temporalio/common';
import { AesGcmPayloadCodec, ENCRYPTED_ENCODING, KEY_ID_METADATA } from '../../src/codec/aes-gcm-codec';
import { dataConverterFromConfig } from '../../src/codec/data-converter';
import { CodecConfigError, readCodecKeys } from '../../src/config/encryption-keys';

const keyA = randomBytes(32).toString('base64');
const keyB = randomBytes(32).toString('base64');
const codec = (list: string, id = '') => new AesGcmPayloadCodec(readCodecKeys('K', id, { K: list }));
const payload = (value: unknown): Payload => defaultPayloadConverter.toPayload(value);
const value = (p: Payload): unknown => defaultPayloadConverter.fromPayload(p);
const secretText = 'the customer card ends 4242 and lives at 12 Canary Wharf';

describe('AES-256-GCM payload codec', () => {
  it('round-trips payloads and leaves no plaintext, with a fresh IV each time', async () => {
    const c = codec(`a:${keyA}`);
    const [one, two] = await c.encode([payload({ text: secretText }), payload({ text: secretText })]);
    for (const p of [one!, two!]) {
      assert.equal(Buffer.from(p.metadata!.encoding!).toString(), ENCRYPTED_ENCODING);
      assert.equal(Buffer.from(p.metadata![KEY_ID_METADATA]!).toString(), 'a');
      assert.ok(!Buffer.from(p.data!).toString('latin1').includes('4242'));
    }
    assert.notDeepEqual(one!.data, two!.data);
    const decoded = await c.decode([one!, two!]);
    assert.deepEqual(decoded.map(value), [{ text: secretText }, { text: secretText }]);
  });

  it('rotates keys by id: old payloads decode after the encrypting key changes', async () => {
    const old = await codec(`a:${keyA}`).encode([payload('written with a')]);
    const rotated = codec(`a:${keyA},b:${keyB}`, 'b');
    const fresh = await rotated.encode([payload('written with b')]);
    assert.equal(Buffer.from(fresh[0]!.metadata![KEY_ID_METADATA]!).toString(), 'b');
    assert.deepEqual((await rotated.decode([...old, ...fresh])).map(value), ['written with a', 'written with b']);
    // Dropping key a too early is a clear error naming the id, never a key.
    await assert.rejects(codec(`b:${keyB}`).decode(old), (e: Error) => {
      assert.match(e.message, /encrypted with key 'a', which is not configured \(keys: b\)/);
      assert.ok(!e.message.includes(keyA) && !e.message.includes(keyB));
      return true;
    });
  });

  it('refuses altered data and a relabelled key id', async () => {
    const c = codec(`a:${keyA},b:${keyA.replace(/^./, (ch) => (ch === 'A' ? 'B' : 'A'))}`);
    const [p] = await c.encode([payload('x')]);
    const flipped = Buffer.from(p!.data!);
    flipped[flipped.length - 20]! ^= 1;
    await assert.rejects(c.decode([{ ...p!, data: flipped }]), /does not authenticate/);
    const relabelled = { metadata: { ...p!.metadata, [KEY_ID_METADATA]: Buffer.from('b') }, data: p!.data };
    await assert.rejects(c.decode([relabelled]), /does not authenticate/);
  });

  it('passes unencrypted payloads through decoding (histories from before encryption stay readable)', async () => {
    const plain = payload({ hello: 'world' });
    assert.deepEqual(value((await codec(`a:${keyA}`).decode([plain]))[0]!), { hello: 'world' });
  });

  const bad: [string, Record<string, string>, string, RegExp][] = [
    ['no variable', {}, '', /the environment variable K holds no keys/],
    ['no id', { K: keyA }, '', /entry 1 must be <id>:<base64 key>/],
    ['a short key', { K: `a:${randomBytes(16).toString('base64')}` }, '', /key 'a' must be 32 bytes in base64/],
    ['a repeated id', { K: `a:${keyA},a:${keyB}` }, '', /key id 'a' is listed twice/],
    ['an unknown encrypting id', { K: `a:${keyA}` }, 'z', /codec\.keyId 'z' is not among the keys in K \(a\)/],
  ];
  for (const [what, env, id, message] of bad) {
    it(`rejects ${what} without showing key material`, () => {
      assert.throws(
        () => readCodecKeys('K', id, env),
        (e: unknown) =>
          e instanceof CodecConfigError &&
          message.test(e.message) &&
          !e.message.includes(keyA) &&
          !e.message.includes(keyB)
      );
    });
  }

  it('the data-converter factory is off by default and encrypting when configured', () => {
    const off = dataConverterFromConfig({
      codec: { encrypt: false, keyId: '', keysEnv: 'K', serverIp: '', serverPort: 0, serverOrigins: '' },
    });
    assert.deepEqual(off, {});
    const on = dataConverterFromConfig(
      { codec: { encrypt: true, keyId: '', keysEnv: 'K', serverIp: '', serverPort: 0, serverOrigins: '' } },
      { K: `a:${keyA}` }
    );
    assert.equal(on.payloadCodecs?.length, 1);
    assert.match(String(on.failureConverterPath), /failure-converter/);
  });
});

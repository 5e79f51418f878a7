// The codec's checked-in test vectors (clients/python/tests/vectors/aes-gcm.json), which the Python client's tests
// decode with its own codec: they must be what this codec writes and reads, or the Python side would pass against
// vectors no worker produces.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { codecFor, fromJson, makeVectors, toJson, type PayloadJson } from '../../scripts/codec-vectors';

const path = resolve(__dirname, '..', '..', 'clients', 'python', 'tests', 'vectors', 'aes-gcm.json');
const checkedIn = JSON.parse(readFileSync(path, 'utf8')) as {
  keys: string;
  vectors: { plain: PayloadJson; encoded: PayloadJson }[];
};

describe('AES-GCM codec vectors for other clients', () => {
  it('decode with the worker codec to their plaintext payloads, by both keys', async () => {
    const decoded = await codecFor(checkedIn.keys).decode(checkedIn.vectors.map((v) => fromJson(v.encoded)));
    assert.deepEqual(
      decoded.map(toJson),
      checkedIn.vectors.map((v) => v.plain)
    );
    const keyIds = checkedIn.vectors.map((v) => Buffer.from(v.encoded.metadata['encryption-key-id']!, 'base64'));
    assert.deepEqual([...new Set(keyIds.map(String))], ['old-key', 'new.key_2']);
  });

  it('hold the plaintexts and keys the generator writes now', async () => {
    const fresh = await makeVectors();
    assert.equal(checkedIn.keys, fresh.keys);
    assert.deepEqual(
      checkedIn.vectors.map((v) => v.plain),
      fresh.vectors.map((v) => v.plain)
    );
  });

  it('fail to decode when a byte is altered', async () => {
    const vector = checkedIn.vectors[0]!.encoded;
    const data = Buffer.from(vector.data, 'base64');
    data[20] = data[20]! ^ 1;
    await assert.rejects(
      codecFor(checkedIn.keys).decode([fromJson({ ...vector, data: data.toString('base64') })]),
      /does not authenticate/
    );
  });
});

import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { CanonicalJsonError, canonicalJson, prefixHash, sha256Hex, utf8Encode } from '../../src/core/hash';

const nodeSha = (data: string | Uint8Array): string => createHash('sha256').update(data).digest('hex');

describe('core/hash', () => {
  describe('sha256Hex', () => {
    it('matches the FIPS 180-4 example digests', () => {
      assert.equal(sha256Hex(''), 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
      assert.equal(sha256Hex('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
      assert.equal(
        sha256Hex('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq'),
        '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1'
      );
    });

    it('matches node:crypto at every length around the block and padding boundaries', () => {
      for (let n = 0; n <= 200; n++) {
        const bytes = new Uint8Array(n).map((_, i) => (i * 31 + n) & 0xff);
        assert.equal(sha256Hex(bytes), nodeSha(bytes), `length ${n}`);
      }
    });

    it('matches node:crypto on random byte arrays', () => {
      fc.assert(
        fc.property(fc.uint8Array({ maxLength: 3000 }), (bytes) => sha256Hex(bytes) === nodeSha(bytes)),
        { numRuns: 300 }
      );
    });

    it('matches node:crypto on random unicode strings, lone surrogates included', () => {
      fc.assert(
        fc.property(fc.string({ unit: 'binary', maxLength: 500 }), (s) => sha256Hex(s) === nodeSha(s)),
        { numRuns: 300 }
      );
      fc.assert(
        fc.property(
          fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)) }),
          (s) => {
            return sha256Hex(s) === nodeSha(Buffer.from(s, 'utf8'));
          }
        ),
        { numRuns: 300 }
      );
    });

    it('encodes UTF-8 exactly as Buffer does', () => {
      for (const s of ['é', '€', '😀', 'a\ud800b', '\udc00', 'x\ud83d', '日本語']) {
        assert.deepEqual(Buffer.from(utf8Encode(s)), Buffer.from(s, 'utf8'), JSON.stringify(s));
      }
    });

    it('hashes a 1 MB string correctly and without quadratic cost', () => {
      const big = 'abcdefghij€😀'.repeat(80_000);
      const started = Date.now();
      assert.equal(sha256Hex(big), nodeSha(big));
      assert.ok(Date.now() - started < 2000, 'a megabyte should hash well under two seconds');
    });
  });

  describe('canonicalJson', () => {
    it('sorts keys at every depth and writes no whitespace', () => {
      assert.equal(
        canonicalJson({ b: 1, a: { d: [1, { z: 0, y: 'x' }], c: null } }),
        '{"a":{"c":null,"d":[1,{"y":"x","z":0}]},"b":1}'
      );
    });

    it('gives the same text for the same data in any key order', () => {
      fc.assert(
        fc.property(fc.jsonValue(), (v) => {
          const shuffled = reverseKeys(v);
          return canonicalJson(v) === canonicalJson(shuffled);
        }),
        { numRuns: 300 }
      );
    });

    it('parses back to the same value as JSON.stringify produces', () => {
      fc.assert(
        fc.property(fc.jsonValue(), (v) => {
          assert.deepEqual(JSON.parse(canonicalJson(v)), JSON.parse(JSON.stringify(v)));
        }),
        { numRuns: 300 }
      );
    });

    it('follows JSON.stringify for undefined, functions, non-finite numbers and toJSON', () => {
      const v = { u: undefined, f: () => 1, n: NaN, i: -Infinity, arr: [undefined, () => 0], d: new Date(0), z: -0 };
      assert.equal(canonicalJson(v), '{"arr":[null,null],"d":"1970-01-01T00:00:00.000Z","i":null,"n":null,"z":0}');
      assert.equal(canonicalJson(undefined), 'null');
      assert.equal(canonicalJson({ only: undefined }), '{}');
      assert.equal(canonicalJson({ a: undefined, b: 1 }), '{"b":1}');
    });

    it('escapes strings as JSON does', () => {
      const s = 'quote " backslash \\ newline \n tab \t nul \u0000 lone \ud800 emoji 😀';
      assert.equal(canonicalJson(s), JSON.stringify(s));
    });

    it('throws a typed error on cycles and bigints, but accepts a shared non-cyclic reference', () => {
      const cyclic: Record<string, unknown> = {};
      cyclic.self = cyclic;
      assert.throws(() => canonicalJson(cyclic), CanonicalJsonError);
      assert.throws(() => canonicalJson([1n]), CanonicalJsonError);
      const shared = { x: 1 };
      assert.equal(canonicalJson([shared, shared]), '[{"x":1},{"x":1}]');
    });
  });

  describe('prefixHash', () => {
    it('is the SHA-256 of the canonical JSON of the raws', () => {
      const raws = [
        { role: 'user', content: 'hi' },
        { content: 'yo', role: 'assistant' },
      ];
      assert.equal(prefixHash(raws), nodeSha('[{"content":"hi","role":"user"},{"content":"yo","role":"assistant"}]'));
      assert.match(prefixHash([]), /^[0-9a-f]{64}$/);
    });

    it('ignores key order and notices any change of data', () => {
      const a = [{ role: 'user', content: 'hi', extra: { b: 1, a: 2 } }];
      const b = [{ extra: { a: 2, b: 1 }, content: 'hi', role: 'user' }];
      assert.equal(prefixHash(a), prefixHash(b));
      assert.notEqual(prefixHash(a), prefixHash([{ ...a[0], content: 'hi!' }]));
      assert.notEqual(prefixHash(a), prefixHash([...a, { role: 'user', content: 'more' }]));
    });
  });
});

function reverseKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(reverseKeys);
  if (v !== null && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    // defineProperty, so a `__proto__` key stays an own data property as JSON.parse made it.
    for (const k of Object.keys(v).reverse()) {
      Object.defineProperty(out, k, {
        value: reverseKeys((v as Record<string, unknown>)[k]),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  }
  return v;
}

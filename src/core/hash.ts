/**
 * SHA-256 and canonical JSON in plain TypeScript. The workflow sandbox has no `crypto` module, and a prefix hash must
 * come out the same in the workflow, in an activity and in a test, so both are written out here.
 */

/** Thrown by {@link canonicalJson} for a value JSON cannot carry faithfully (a cycle or a bigint). */
export class CanonicalJsonError extends Error {
  override readonly name = 'CanonicalJsonError';
}

// First 32 bits of the fractional parts of the cube roots of the first 64 primes (FIPS 180-4 §4.2.2).
const K = new Int32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
]);

/**
 * Encodes a string as UTF-8. A lone surrogate becomes U+FFFD, as `TextEncoder` and Node's `Buffer` do, so the hash of
 * such a string matches theirs.
 * @returns the UTF-8 bytes.
 */
export function utf8Encode(text: string): Uint8Array {
  // Worst case is 3 bytes per UTF-16 code unit (a surrogate pair is 2 units → 4 bytes).
  const out = new Uint8Array(text.length * 3);
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    let c = text.charCodeAt(i);
    if (c < 0x80) {
      out[n++] = c;
      continue;
    }
    if (c >= 0xd800 && c <= 0xdfff) {
      const next = i + 1 < text.length ? text.charCodeAt(i + 1) : 0;
      if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        c = 0x10000 + ((c - 0xd800) << 10) + (next - 0xdc00);
        i++;
        out[n++] = 0xf0 | (c >> 18);
        out[n++] = 0x80 | ((c >> 12) & 0x3f);
        out[n++] = 0x80 | ((c >> 6) & 0x3f);
        out[n++] = 0x80 | (c & 0x3f);
        continue;
      }
      c = 0xfffd;
    }
    if (c < 0x800) {
      out[n++] = 0xc0 | (c >> 6);
      out[n++] = 0x80 | (c & 0x3f);
    } else {
      out[n++] = 0xe0 | (c >> 12);
      out[n++] = 0x80 | ((c >> 6) & 0x3f);
      out[n++] = 0x80 | (c & 0x3f);
    }
  }
  return out.subarray(0, n);
}

/**
 * SHA-256 (FIPS 180-4) of bytes, or of a string taken as UTF-8.
 * @returns the 32-byte digest.
 */
export function sha256(input: Uint8Array | string): Uint8Array {
  const data = typeof input === 'string' ? utf8Encode(input) : input;
  const bitLength = data.length * 8;
  // Message, 0x80, zero padding, 64-bit big-endian length: a multiple of 64 bytes.
  const padded = new Uint8Array((((data.length + 8) >> 6) + 1) << 6);
  padded.set(data);
  padded[data.length] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 8, Math.floor(bitLength / 0x100000000));
  view.setUint32(padded.length - 4, bitLength >>> 0);

  const h = new Int32Array([
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
  ]);
  const w = new Int32Array(64);
  for (let block = 0; block < padded.length; block += 64) {
    for (let t = 0; t < 16; t++) w[t] = view.getInt32(block + t * 4);
    for (let t = 16; t < 64; t++) {
      const x = w[t - 15]!;
      const y = w[t - 2]!;
      const s0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3);
      const s1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10);
      w[t] = (w[t - 16]! + s0 + w[t - 7]! + s1) | 0;
    }
    let a = h[0]!;
    let b = h[1]!;
    let c = h[2]!;
    let d = h[3]!;
    let e = h[4]!;
    let f = h[5]!;
    let g = h[6]!;
    let k = h[7]!;
    for (let t = 0; t < 64; t++) {
      const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
      const ch = (e & f) ^ (~e & g);
      const t1 = (k + S1 + ch + K[t]! + w[t]!) | 0;
      const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
      const maj = (a & b) ^ (a & c) ^ (b & c);
      const t2 = (S0 + maj) | 0;
      k = g;
      g = f;
      f = e;
      e = (d + t1) | 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) | 0;
    }
    h[0] = (h[0]! + a) | 0;
    h[1] = (h[1]! + b) | 0;
    h[2] = (h[2]! + c) | 0;
    h[3] = (h[3]! + d) | 0;
    h[4] = (h[4]! + e) | 0;
    h[5] = (h[5]! + f) | 0;
    h[6] = (h[6]! + g) | 0;
    h[7] = (h[7]! + k) | 0;
  }
  const digest = new Uint8Array(32);
  const out = new DataView(digest.buffer);
  for (let i = 0; i < 8; i++) out.setInt32(i * 4, h[i]!);
  return digest;
}

/**
 * SHA-256 as lowercase hex.
 * @returns 64 hex characters.
 */
export function sha256Hex(input: Uint8Array | string): string {
  const digest = sha256(input);
  const parts: string[] = new Array<string>(digest.length);
  for (let i = 0; i < digest.length; i++) parts[i] = digest[i]!.toString(16).padStart(2, '0');
  return parts.join('');
}

/**
 * Canonical JSON: `JSON.stringify`'s value rules (a `toJSON` method is honoured, `undefined`/functions/symbols are left
 * out of objects and become `null` in arrays, non-finite numbers become `null`), but object keys sorted by UTF-16 code
 * unit and no whitespace, so equal data always gives the same text whatever order its keys were written in.
 * @returns the JSON text; `undefined` at the top level gives `'null'` so the result is always a JSON document.
 * @throws CanonicalJsonError on a cyclic structure or a bigint.
 */
export function canonicalJson(value: unknown): string {
  const parts: string[] = [];
  const stack = new Set<object>();
  write(value, parts, stack, false);
  return parts.join('');
}

/** Appends `value`; returns false when it is not representable (so an object member is skipped). */
function write(value: unknown, parts: string[], stack: Set<object>, inObject: boolean): boolean {
  if (value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    value = (value as { toJSON: () => unknown }).toJSON();
  }
  switch (typeof value) {
    case 'string':
      parts.push(JSON.stringify(value));
      return true;
    case 'number':
      parts.push(Number.isFinite(value) ? JSON.stringify(value) : 'null');
      return true;
    case 'boolean':
      parts.push(value ? 'true' : 'false');
      return true;
    case 'bigint':
      throw new CanonicalJsonError('canonicalJson: a bigint has no JSON form');
    case 'undefined':
    case 'function':
    case 'symbol':
      if (inObject) return false;
      parts.push('null');
      return true;
    case 'object':
      break;
  }
  if (value === null) {
    parts.push('null');
    return true;
  }
  const obj = value;
  if (stack.has(obj)) throw new CanonicalJsonError('canonicalJson: the value contains a cycle');
  stack.add(obj);
  if (Array.isArray(obj)) {
    parts.push('[');
    for (let i = 0; i < obj.length; i++) {
      if (i > 0) parts.push(',');
      write(obj[i], parts, stack, false);
    }
    parts.push(']');
  } else {
    const record = obj as Record<string, unknown>;
    parts.push('{');
    let first = true;
    for (const key of Object.keys(record).sort()) {
      const mark = parts.length;
      parts.push(first ? '' : ',', JSON.stringify(key), ':');
      if (write(record[key], parts, stack, true)) first = false;
      else parts.length = mark;
    }
    parts.push('}');
  }
  stack.delete(obj);
  return true;
}

/**
 * Identifies a prefix of a transcript: lowercase hex SHA-256 of the canonical JSON of the raw elements. Two prefixes
 * hash equal exactly when they hold the same data, whatever order their keys were written in.
 * @returns 64 hex characters.
 * @throws CanonicalJsonError when a raw element is cyclic or holds a bigint.
 */
export function prefixHash(raws: readonly unknown[]): string {
  return sha256Hex(canonicalJson(raws));
}

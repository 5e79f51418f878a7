/**
 * An AES-256-GCM payload codec: every payload leaving the process (workflow inputs and results, update arguments and
 * results, activity inputs and results, query answers, encoded failure messages) is serialized whole and encrypted,
 * so the Temporal server stores ciphertext only. The key id travels in the payload's metadata; decoding picks the key
 * by that id, so payloads written before a rotation still decode. Payloads that are not encrypted pass through
 * decoding unchanged (histories written before encryption was turned on stay readable).
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { Payload, PayloadCodec } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import type { CodecKeys } from '../config/encryption-keys';

/** The `encoding` metadata of an encrypted payload. */
export const ENCRYPTED_ENCODING = 'binary/encrypted';
/** Metadata naming the key that encrypted a payload. */
export const KEY_ID_METADATA = 'encryption-key-id';
/** Metadata naming the cipher. */
export const CIPHER_METADATA = 'encryption-cipher';
const CIPHER = 'AES-256-GCM';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A payload that cannot be decrypted: unknown key id, tampered or truncated data. Never contains key material. */
export class PayloadDecryptError extends Error {
  override readonly name = 'PayloadDecryptError';
}

const text = (bytes: Uint8Array | null | undefined): string => (bytes ? Buffer.from(bytes).toString('utf8') : '');

/** Encrypts and decrypts payloads with the keys given. */
export class AesGcmPayloadCodec implements PayloadCodec {
  constructor(private readonly keys: CodecKeys) {}

  /** @returns the payloads, each serialized and encrypted with the encrypting key (a fresh random IV each). */
  encode(payloads: Payload[]): Promise<Payload[]> {
    const id = this.keys.encryptKeyId;
    const key = this.keys.keys.get(id)!;
    return Promise.resolve(
      payloads.map((payload) => {
        const plain = temporal.api.common.v1.Payload.encode(payload).finish();
        const iv = randomBytes(IV_BYTES);
        const cipher = createCipheriv('aes-256-gcm', key, iv);
        // The key id is authenticated: a payload cannot be relabelled to another key.
        cipher.setAAD(Buffer.from(id, 'utf8'));
        const data = Buffer.concat([iv, cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
        return {
          metadata: {
            encoding: Buffer.from(ENCRYPTED_ENCODING),
            [KEY_ID_METADATA]: Buffer.from(id),
            [CIPHER_METADATA]: Buffer.from(CIPHER),
          },
          data,
        };
      })
    );
  }

  /**
   * @returns the original payloads (unencrypted ones as they are).
   * @throws PayloadDecryptError naming the key id when the key is unknown or the data does not authenticate.
   */
  // eslint-disable-next-line @typescript-eslint/require-await -- async so a bad payload rejects instead of throwing
  async decode(payloads: Payload[]): Promise<Payload[]> {
    return payloads.map((payload) => this.decodeOne(payload));
  }

  private decodeOne(payload: Payload): Payload {
    if (text(payload.metadata?.encoding) !== ENCRYPTED_ENCODING) return payload;
    const id = text(payload.metadata?.[KEY_ID_METADATA]);
    const key = this.keys.keys.get(id);
    if (!key) {
      throw new PayloadDecryptError(
        `payload encrypted with key '${id.slice(0, 64)}', which is not configured (keys: ${[...this.keys.keys.keys()].join(', ')})`
      );
    }
    const data = Buffer.from(payload.data ?? new Uint8Array());
    if (data.length < IV_BYTES + TAG_BYTES)
      throw new PayloadDecryptError(`encrypted payload (key '${id}') is truncated`);
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, data.subarray(0, IV_BYTES));
      decipher.setAAD(Buffer.from(id, 'utf8'));
      decipher.setAuthTag(data.subarray(data.length - TAG_BYTES));
      const plain = Buffer.concat([
        decipher.update(data.subarray(IV_BYTES, data.length - TAG_BYTES)),
        decipher.final(),
      ]);
      return temporal.api.common.v1.Payload.decode(plain);
    } catch {
      throw new PayloadDecryptError(`encrypted payload (key '${id}') does not authenticate: wrong key or altered data`);
    }
  }
}

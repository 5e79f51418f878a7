/**
 * Encryption of the archive at rest (`archive.encrypt`), with the codec's keys. From each configured key three keys
 * are derived (HKDF-SHA256, one label each), so nothing the archive writes is made with the key the payload codec uses:
 * - bodies: AES-256-GCM, a random 96-bit IV per write, the row's identity (workflow id, kind, number, revision) and
 *   the key id bound as associated data, so a ciphertext copied to another row or relabelled to another key fails;
 * - content hashes: HMAC-SHA256 of the row's number and the content's SHA-256, so a stored hash cannot be checked
 *   against guessed content, and equal content under two numbers does not show as equal hashes;
 * - search words: each word replaced by a keyed token of the conversation and the word (a blind index): the same word
 *   is the same token within one conversation, and a different one in another.
 * docs/archive.md "Encryption at rest" says what this hides and what it does not.
 */
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import type { CodecKeys } from '../config/encryption-keys';
import { ArchiveError } from './archive';

const IV_BYTES = 12;
const TAG_BYTES = 16;
/** Bytes of HMAC a search token keeps: distinct words of one conversation practically never share a token. */
const TOKEN_BYTES = 8;
/** A token is written in the letters a–p (one per half byte): one plain word to every tokenizer (FTS5, `simple`). */
const TOKEN_LETTERS = 'abcdefghijklmnop';

/** What a ciphertext is bound to: the row it was written for (a body moved elsewhere does not decrypt). */
export type RowIdentity = readonly (string | number)[];

/** A row that cannot be decrypted: its key is not configured, or its data does not authenticate. No key material. */
export class ArchiveDecryptError extends ArchiveError {
  override readonly name: string = 'ArchiveDecryptError';
}

interface DerivedKeys {
  body: Buffer;
  hash: Buffer;
  search: Buffer;
}

function derive(key: Buffer, label: string): Buffer {
  return Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), `durable-compaction archive ${label}`, 32));
}

/** Seals and opens archive bodies, hashes and search words with the configured keys. */
export class ArchiveCipher {
  private readonly derived = new Map<string, DerivedKeys>();
  /** The id new rows are encrypted with. */
  readonly keyId: string;

  constructor(keys: CodecKeys) {
    this.keyId = keys.encryptKeyId;
    for (const [id, key] of keys.keys)
      this.derived.set(id, { body: derive(key, 'body'), hash: derive(key, 'hash'), search: derive(key, 'search') });
  }

  /** @returns every configured key id (each decrypts; rows and search tokens of any of them are read). */
  keyIds(): string[] {
    return [...this.derived.keys()];
  }

  /**
   * @returns `plain` encrypted for the row `identity` with key `keyId`, as base64 of IV, ciphertext and tag.
   * @throws ArchiveDecryptError when `keyId` is not configured.
   */
  seal(identity: RowIdentity, plain: string, keyId: string = this.keyId): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.keys(keyId, identity).body, iv);
    cipher.setAAD(associatedData(keyId, identity));
    return Buffer.concat([iv, cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()]).toString('base64');
  }

  /**
   * @returns the text sealed as `body` for the row `identity` with key `keyId`.
   * @throws ArchiveDecryptError naming the row and the key id when the key is not configured or the body does not
   *   authenticate (altered, truncated, or sealed for another row).
   */
  open(identity: RowIdentity, keyId: string, body: string): string {
    const key = this.keys(keyId, identity).body;
    const data = Buffer.from(body, 'base64');
    try {
      if (data.length < IV_BYTES + TAG_BYTES) throw new Error('truncated');
      const decipher = createDecipheriv('aes-256-gcm', key, data.subarray(0, IV_BYTES));
      decipher.setAAD(associatedData(keyId, identity));
      decipher.setAuthTag(data.subarray(data.length - TAG_BYTES));
      return Buffer.concat([
        decipher.update(data.subarray(IV_BYTES, data.length - TAG_BYTES)),
        decipher.final(),
      ]).toString('utf8');
    } catch {
      throw new ArchiveDecryptError(
        `the archive row ${describeRow(identity)} (key '${keyId}') does not authenticate: altered, or written for another row`
      );
    }
  }

  /**
   * @returns the hash stored for content of SHA-256 `contentHash` (hex) at `place` (workflow id, kind, number): the
   *   HMAC of both with key `keyId`'s hash key, hex. A write compares hashes at the same place only.
   */
  hash(place: RowIdentity, contentHash: string, keyId: string = this.keyId): string {
    const mac = createHmac('sha256', this.keys(keyId, []).hash);
    return mac.update(JSON.stringify([...place, contentHash]), 'utf8').digest('hex');
  }

  /**
   * @returns `words` (single-space separated, `searchWords` form) with each word replaced by its token for
   *   conversation `key` (a workflow id: no NUL) and `keyId`.
   */
  blind(key: string, words: string, keyId: string = this.keyId): string {
    if (words === '') return '';
    const searchKey = this.keys(keyId, []).search;
    return words
      .split(' ')
      .map((word) => {
        const mac = createHmac('sha256', searchKey).update(`${key}\u0000${word}`, 'utf8').digest();
        let token = '';
        for (const byte of mac.subarray(0, TOKEN_BYTES)) token += TOKEN_LETTERS[byte >> 4]! + TOKEN_LETTERS[byte & 15]!;
        return token;
      })
      .join(' ');
  }

  private keys(keyId: string, identity: RowIdentity): DerivedKeys {
    const keys = this.derived.get(keyId);
    if (!keys) {
      const row = identity.length > 0 ? `the archive row ${describeRow(identity)} is` : 'archive rows are';
      throw new ArchiveDecryptError(
        `${row} encrypted with key '${keyId.slice(0, 64)}', which is not configured (keys: ${this.keyIds().join(', ')})`
      );
    }
    return keys;
  }
}

/** The associated data of a sealed body: a version label, the key id and the row's identity, unambiguously joined. */
function associatedData(keyId: string, identity: RowIdentity): Buffer {
  return Buffer.from(JSON.stringify(['dc-archive/1', keyId, ...identity]), 'utf8');
}

/** @returns a row's identity as messages name it: `message 3 revision 0 of "workflow-id"`. */
export function describeRow(identity: RowIdentity): string {
  const [key, kind, ...rest] = identity;
  return `${String(kind)} ${rest.join(' revision ')} of ${JSON.stringify(key)}`;
}

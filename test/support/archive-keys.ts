/** Encryption keys for archive tests: one random key per id for the whole test process, as a worker would be given. */
import { randomBytes } from 'node:crypto';
import { ArchiveCipher } from '../../src/archive/cipher';
import { parseKeyList } from '../../src/config/encryption-keys';

const keys = new Map<string, string>();

/** @returns the `id:base64key,…` list of these ids (the same key for an id every call), as DC_CODEC_KEYS holds it. */
export function keyList(...ids: string[]): string {
  return ids
    .map((id) => {
      if (!keys.has(id)) keys.set(id, randomBytes(32).toString('base64'));
      return `${id}:${keys.get(id)!}`;
    })
    .join(',');
}

/** @returns a cipher with the keys `ids`, encrypting with the first. */
export function testCipher(...ids: string[]): ArchiveCipher {
  return new ArchiveCipher({ encryptKeyId: ids[0]!, keys: parseKeyList(keyList(...ids), 'DC_CODEC_KEYS') });
}

/** The environment of a helper process that opens the archive encrypted with `ids` (the first encrypts). */
export function encryptedEnv(...ids: string[]): Record<string, string> {
  return { ARCHIVE_ENCRYPT: 'true', DC_CODEC_KEYS: keyList(...ids), DC_CODEC_KEY_ID: ids[0]! };
}

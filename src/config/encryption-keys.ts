/**
 * The encryption keys: AES-256 keys by id, read from one environment variable (`id:base64key,id:base64key`), and the id
 * new data is encrypted with. The payload codec and the archive's encryption at rest both use them. Every listed key
 * decrypts, so a key is rotated by adding a new one, switching the encrypting id, and removing the old key only once
 * nothing retained uses it. Errors name ids and variables, never key material.
 */

/** Bad codec configuration (the message never contains a key). */
export class CodecConfigError extends Error {
  override readonly name = 'CodecConfigError';
}

/** The keys a codec encrypts and decrypts with. */
export interface CodecKeys {
  /** The id new payloads are encrypted with (written in their metadata). */
  encryptKeyId: string;
  /** Id → 32-byte key. */
  keys: ReadonlyMap<string, Buffer>;
}

/** What a key id may look like: it travels in payload metadata, in the clear. */
export const KEY_ID = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * Parses `id:base64key[,id:base64key…]`.
 * @param variable the variable's name, for messages.
 * @returns id → key.
 * @throws CodecConfigError naming the variable and entry (by position and id) when an entry is malformed, an id
 *   repeats, or a key is not 32 bytes of base64.
 */
export function parseKeyList(text: string, variable: string): Map<string, Buffer> {
  const keys = new Map<string, Buffer>();
  const entries = text
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e !== '');
  entries.forEach((entry, index) => {
    const colon = entry.indexOf(':');
    const id = colon === -1 ? '' : entry.slice(0, colon).trim();
    const where = `${variable}: entry ${index + 1}`;
    if (!KEY_ID.test(id))
      throw new CodecConfigError(`${where} must be <id>:<base64 key> with an id of letters, digits, '.', '_', '-'`);
    if (keys.has(id)) throw new CodecConfigError(`${where}: key id '${id}' is listed twice`);
    const encoded = entry.slice(colon + 1).trim();
    const key = Buffer.from(encoded, 'base64');
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded) || key.length !== 32) {
      throw new CodecConfigError(`${where}: key '${id}' must be 32 bytes in base64 (openssl rand -base64 32)`);
    }
    keys.set(id, key);
  });
  return keys;
}

/**
 * Reads the keys from the environment.
 * @param purpose what is on, for the message when no keys are set. @default 'payload encryption'
 * @returns the keys, encrypting with `keyId` (or the first listed key when `keyId` is '').
 * @throws CodecConfigError when the variable is unset or empty, malformed, or does not hold `keyId`.
 */
export function readCodecKeys(
  keysEnv: string,
  keyId: string,
  env: NodeJS.ProcessEnv = process.env,
  purpose = 'payload encryption'
): CodecKeys {
  const text = env[keysEnv];
  if (text === undefined || text.trim() === '') {
    throw new CodecConfigError(`${purpose} is on but the environment variable ${keysEnv} holds no keys`);
  }
  const keys = parseKeyList(text, keysEnv);
  const encryptKeyId = keyId === '' ? [...keys.keys()][0]! : keyId;
  if (!keys.has(encryptKeyId)) {
    throw new CodecConfigError(
      `codec.keyId '${encryptKeyId}' is not among the keys in ${keysEnv} (${[...keys.keys()].join(', ')})`
    );
  }
  return { encryptKeyId, keys };
}

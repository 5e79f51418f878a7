import { join, resolve } from 'node:path';
import { CodecConfigError, readCodecKeys } from '../config/encryption-keys';
import type { Config } from '../config/schema';
import { ArchiveConfigError, type ConversationArchive } from './archive';
import { ArchiveCipher } from './cipher';
import { PostgresArchive } from './postgres-archive';
import { SqliteArchive } from './sqlite-archive';

/** The configuration keys the archive reads. */
export type ArchiveConfig = Pick<Config, 'archive'> & {
  devServer: Pick<Config['devServer'], 'dataDir'>;
  /** The keys' variable and the encrypting key id, read when `archive.encrypt` is on. */
  codec: Pick<Config['codec'], 'keysEnv' | 'keyId'>;
};

/** @returns the SQLite file the configuration names: `archive.path`, or `archive.sqlite` in the data folder. */
export function sqliteArchivePath(config: ArchiveConfig): string {
  return resolve(config.archive.path !== '' ? config.archive.path : join(config.devServer.dataDir, 'archive.sqlite'));
}

/**
 * The cipher `archive.encrypt` asks for: the codec's keys (`codec.keysEnv`), encrypting with `codec.keyId`.
 * @returns undefined when encryption at rest is off.
 * @throws ArchiveConfigError naming the variable or key id (never a key) when the keys are missing or malformed.
 */
export function archiveCipher(config: ArchiveConfig, env: NodeJS.ProcessEnv = process.env): ArchiveCipher | undefined {
  if (!config.archive.encrypt) return undefined;
  try {
    return new ArchiveCipher(readCodecKeys(config.codec.keysEnv, config.codec.keyId, env, 'archive.encrypt'));
  } catch (err) {
    if (err instanceof CodecConfigError) throw new ArchiveConfigError(err.message);
    throw err;
  }
}

/**
 * Opens the configured archive driver and brings its schema up to date (the worker calls this at start).
 * @param opts.readOnly open it for reading only, as a `ConversationClient` re-materialising lightened messages does
 *   (see `openArchiveReader`). @default false
 * With `archive.encrypt`, it writes encrypted rows and reads encrypted and plain ones (see {@link archiveCipher}).
 * @throws ArchiveConfigError with one line saying what is wrong: no URL for `postgres`, a malformed URL, an
 *   unreachable server, wrong credentials, an unwritable SQLite path, a schema newer than this code, or missing or
 *   malformed keys with `archive.encrypt`.
 */
export async function openArchive(
  config: ArchiveConfig,
  opts: { readOnly?: boolean } = {}
): Promise<ConversationArchive> {
  const readOnly = opts.readOnly ?? false;
  const cipher = archiveCipher(config);
  if (config.archive.driver === 'sqlite')
    return SqliteArchive.open({ path: sqliteArchivePath(config), readOnly, cipher });
  if (config.archive.url === '')
    throw new ArchiveConfigError('archive.driver is postgres but no URL is set (archive.url or DATABASE_URL)');
  const poolSize = readOnly ? 2 : config.archive.poolSize;
  return PostgresArchive.open({ url: config.archive.url, poolSize, readOnly, cipher });
}

/**
 * Opens the configured archive (the worker's configuration, e.g. `loadConfig()`) for reading only: SQLite opens the
 * existing file read-only, PostgreSQL runs every transaction read-only; nothing is created or migrated. Give it to
 * `ConversationClient` as `archive` to get the originals of lightened messages back.
 * @throws ArchiveConfigError with one line saying what is wrong (no such file, no URL, unreachable server, …).
 */
export function openArchiveReader(config: ArchiveConfig): Promise<ConversationArchive> {
  return openArchive(config, { readOnly: true });
}

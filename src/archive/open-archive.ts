import { join, resolve } from 'node:path';
import type { Config } from '../config/schema';
import { ArchiveConfigError, type ConversationArchive } from './archive';
import { PostgresArchive } from './postgres-archive';
import { SqliteArchive } from './sqlite-archive';

/** The configuration keys the archive reads. */
export type ArchiveConfig = Pick<Config, 'archive'> & { devServer: Pick<Config['devServer'], 'dataDir'> };

/** @returns the SQLite file the configuration names: `archive.path`, or `archive.sqlite` in the data folder. */
export function sqliteArchivePath(config: ArchiveConfig): string {
  return resolve(config.archive.path !== '' ? config.archive.path : join(config.devServer.dataDir, 'archive.sqlite'));
}

/**
 * Opens the configured archive driver and brings its schema up to date (the worker calls this at start).
 * @param opts.readOnly open it for reading only, as a `ConversationClient` re-materialising lightened messages does
 *   (see `openArchiveReader`). @default false
 * @throws ArchiveConfigError with one line saying what is wrong: no URL for `postgres`, a malformed URL, an
 *   unreachable server, wrong credentials, an unwritable SQLite path, or a schema newer than this code.
 */
export async function openArchive(
  config: ArchiveConfig,
  opts: { readOnly?: boolean } = {}
): Promise<ConversationArchive> {
  const readOnly = opts.readOnly ?? false;
  if (config.archive.driver === 'sqlite') return SqliteArchive.open({ path: sqliteArchivePath(config), readOnly });
  if (config.archive.url === '')
    throw new ArchiveConfigError('archive.driver is postgres but no URL is set (archive.url or DATABASE_URL)');
  return PostgresArchive.open({ url: config.archive.url, poolSize: readOnly ? 2 : config.archive.poolSize, readOnly });
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

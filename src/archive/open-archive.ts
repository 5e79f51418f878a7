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
 * @throws ArchiveConfigError with one line saying what is wrong: no URL for `postgres`, a malformed URL, an
 *   unreachable server, wrong credentials, an unwritable SQLite path, or a schema newer than this code.
 */
export async function openArchive(config: ArchiveConfig): Promise<ConversationArchive> {
  if (config.archive.driver === 'sqlite') return SqliteArchive.open({ path: sqliteArchivePath(config) });
  if (config.archive.url === '')
    throw new ArchiveConfigError('archive.driver is postgres but no URL is set (archive.url or DATABASE_URL)');
  return PostgresArchive.open({ url: config.archive.url, poolSize: config.archive.poolSize });
}

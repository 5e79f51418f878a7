import type { ConversationArchive } from '../../src/archive/archive';
import { openArchive } from '../../src/archive/open-archive';

/** @returns the value of an environment variable a helper process needs. @throws Error naming it when unset. */
export function requiredEnv(name: string, who: string): string {
  const value = process.env[name];
  if (value === undefined || value === '') throw new Error(`${who}: ${name} is not set`);
  return value;
}

/**
 * Opens the archive a helper process is told to use: ARCHIVE_DRIVER (sqlite at ARCHIVE_PATH, postgres at DATABASE_URL),
 * encrypted when ARCHIVE_ENCRYPT is `true` (keys in DC_CODEC_KEYS, encrypting with DC_CODEC_KEY_ID or the first).
 */
export function openArchiveFromEnv(who: string): Promise<ConversationArchive> {
  const driver = requiredEnv('ARCHIVE_DRIVER', who) === 'postgres' ? 'postgres' : 'sqlite';
  return openArchive({
    archive: {
      driver,
      path: driver === 'sqlite' ? requiredEnv('ARCHIVE_PATH', who) : '',
      url: driver === 'postgres' ? requiredEnv('DATABASE_URL', who) : '',
      poolSize: 4,
      encrypt: process.env.ARCHIVE_ENCRYPT === 'true',
    },
    devServer: { dataDir: '.data' },
    codec: { keysEnv: 'DC_CODEC_KEYS', keyId: process.env.DC_CODEC_KEY_ID ?? '' },
  });
}

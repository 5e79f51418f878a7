import type { ConversationArchive } from '../../src/archive/archive';
import { openArchive } from '../../src/archive/open-archive';

/** @returns the value of an environment variable a helper process needs. @throws Error naming it when unset. */
export function requiredEnv(name: string, who: string): string {
  const value = process.env[name];
  if (value === undefined || value === '') throw new Error(`${who}: ${name} is not set`);
  return value;
}

/** Opens the archive a helper process is told to use: ARCHIVE_DRIVER (sqlite at ARCHIVE_PATH, postgres at DATABASE_URL). */
export function openArchiveFromEnv(who: string): Promise<ConversationArchive> {
  const driver = requiredEnv('ARCHIVE_DRIVER', who) === 'postgres' ? 'postgres' : 'sqlite';
  return openArchive({
    archive: {
      driver,
      path: driver === 'sqlite' ? requiredEnv('ARCHIVE_PATH', who) : '',
      url: driver === 'postgres' ? requiredEnv('DATABASE_URL', who) : '',
      poolSize: 4,
    },
    devServer: { dataDir: '.data' },
  });
}

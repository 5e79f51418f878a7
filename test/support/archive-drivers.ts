/** The two archive drivers as tests of whole conversations use them: a fresh database each, and its bytes at rest. */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client as PgClient } from 'pg';
import type { ConversationArchive } from '../../src/archive/archive';
import { PostgresArchive } from '../../src/archive/postgres-archive';
import { SqliteArchive } from '../../src/archive/sqlite-archive';
import { freshDatabase } from './postgres';

/** One archive driver under test: how to open it, where its bytes are, and the CLI's environment for it. */
export interface ArchiveDriver {
  open(): Promise<ConversationArchive>;
  /** How many places at rest (file bytes, table rows) still hold `text`. */
  holding(text: string): Promise<number>;
  cliEnv: Record<string, string>;
  close(): Promise<void>;
}

export function sqliteDriver(): ArchiveDriver {
  const dataDir = mkdtempSync(join(tmpdir(), 'dc-delete-'));
  const path = join(dataDir, 'archive.sqlite');
  return {
    open: () => Promise.resolve(SqliteArchive.open({ path })),
    holding: (text) =>
      Promise.resolve([path, `${path}-wal`].filter((f) => existsSync(f) && readFileSync(f).includes(text)).length),
    cliEnv: { DATA_DIR: dataDir, ARCHIVE_DRIVER: 'sqlite' },
    close: () => Promise.resolve(),
  };
}

export async function postgresDriver(): Promise<ArchiveDriver> {
  const url = await freshDatabase('delete');
  const pg = new PgClient({ connectionString: url });
  await pg.connect();
  return {
    open: () => PostgresArchive.open({ url }),
    holding: async (text) => {
      const { rows } = await pg.query<{ n: string }>(
        `SELECT (SELECT count(*) FROM archive_entries WHERE body LIKE $1)
              + (SELECT count(*) FROM archive_superseded WHERE body LIKE $1) AS n`,
        [`%${text}%`]
      );
      return Number(rows[0]!.n);
    },
    cliEnv: { ARCHIVE_DRIVER: 'postgres', DATABASE_URL: url },
    close: () => pg.end(),
  };
}

/** Both drivers by name (PostgreSQL needs `bash scripts/with-postgres.sh`, as `npm test` runs it). */
export const archiveDrivers: readonly (readonly [string, () => Promise<ArchiveDriver>])[] = [
  ['sqlite', () => Promise.resolve(sqliteDriver())],
  ['postgres', postgresDriver],
];

/** A driver's open archive, for the tests {@link describeOnEachArchive} defines. */
export interface ArchiveUnderTest {
  driver: ArchiveDriver;
  archive: ConversationArchive;
}

/**
 * Defines `body` once per driver in a suite named `title (driver archive)`, with a fresh database opened before it
 * and closed after it.
 */
export function describeOnEachArchive(
  title: string,
  body: (name: string, under: () => ArchiveUnderTest) => void
): void {
  for (const [name, make] of archiveDrivers) {
    describe(`${title} (${name} archive)`, function () {
      this.timeout(240_000);
      let under: ArchiveUnderTest | undefined;
      before(async () => {
        const driver = await make();
        under = { driver, archive: await driver.open() };
      });
      after(async () => {
        await under?.archive.close();
        await under?.driver.close();
      });
      body(name, () => under!);
    });
  }
}

import { Client } from 'pg';

/**
 * The throwaway PostgreSQL cluster scripts/test.sh starts: its database's URL.
 * @throws Error saying how to get one when the tests run without it.
 */
export function testDatabaseUrl(): string {
  const url = process.env.DC_TEST_DATABASE_URL;
  if (!url)
    throw new Error(
      'DC_TEST_DATABASE_URL is not set: run the tests through `npm test` / `bash scripts/test.sh` (it starts a throwaway PostgreSQL), or set it to an empty database'
    );
  return url;
}

let databases = 0;

/** @returns the URL of a new, empty database on the test cluster (for tests of migrations and schema state). */
export async function freshDatabase(label: string): Promise<string> {
  const admin = process.env.DC_TEST_PG_ADMIN_URL;
  if (!admin) throw new Error('DC_TEST_PG_ADMIN_URL is not set: run the tests through `npm test`');
  const name = `dc_${label.replace(/[^a-z0-9_]/gi, '_').toLowerCase()}_${process.pid}_${++databases}`;
  const client = new Client({ connectionString: admin });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(testDatabaseUrl());
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * Archive benchmark (`npm run bench archive`, which starts a throwaway PostgreSQL with durable settings): writes per
 * second on each driver, measured in one run on this machine:
 * - one message per transaction (the worst case: every write a durable commit), one writer;
 * - one turn of 4 messages per transaction, one writer (the usual `ingest`);
 * - 8 conversations written at once (one turn per transaction each), as 8 activities of one worker would;
 * - a retried write (same content: read and compare, nothing written).
 * Messages are ~1 KB chat messages. SQLite: WAL, synchronous = FULL; PostgreSQL: fsync and synchronous_commit on.
 * Results: bench/results/archive.{json,md}.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ConversationArchive } from '../src/archive/archive';
import { PostgresArchive } from '../src/archive/postgres-archive';
import { SqliteArchive } from '../src/archive/sqlite-archive';

const SINGLE = 1500;
const TURNS = 600;
const TURN = 4;
const CONCURRENT = 8;
const CONCURRENT_TURNS = 150;

interface Row {
  driver: string;
  singleWritesPerSec: number;
  turnWritesPerSec: number;
  turnMessagesPerSec: number;
  concurrentWritesPerSec: number;
  retriedWritesPerSec: number;
}

function message(n: number): { role: string; content: string } {
  const text = `message ${n}: ` + 'the agent read src/archive/sqlite-archive.ts and ran the tests again. '.repeat(14);
  return { role: n % 2 === 0 ? 'user' : 'assistant', content: text };
}

async function rate(count: number, run: () => Promise<void>): Promise<number> {
  const start = process.hrtime.bigint();
  await run();
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  return Math.round(count / seconds);
}

async function measure(driver: string, archive: ConversationArchive): Promise<Row> {
  const key = (label: string) => `conversation-bench-${label}-${process.pid}`;
  const singleWritesPerSec = await rate(SINGLE, async () => {
    for (let n = 0; n < SINGLE; n++) await archive.append(key('single'), n, [message(n)]);
  });
  const turns = (label: string, count: number) => async () => {
    for (let t = 0; t < count; t++)
      await archive.append(
        key(label),
        t * TURN,
        Array.from({ length: TURN }, (_, i) => message(t * TURN + i))
      );
  };
  const turnWritesPerSec = await rate(TURNS, turns('turns', TURNS));
  const concurrentWritesPerSec = await rate(CONCURRENT * CONCURRENT_TURNS, async () => {
    await Promise.all(Array.from({ length: CONCURRENT }, (_, c) => turns(`c${c}`, CONCURRENT_TURNS)()));
  });
  const retriedWritesPerSec = await rate(TURNS, turns('turns', TURNS));
  return {
    driver,
    singleWritesPerSec,
    turnWritesPerSec,
    turnMessagesPerSec: turnWritesPerSec * TURN,
    concurrentWritesPerSec,
    retriedWritesPerSec,
  };
}

async function main(): Promise<void> {
  const url = process.env.DATABASE_URL ?? process.env.DC_TEST_DATABASE_URL;
  if (!url) throw new Error('no PostgreSQL: run `npm run bench archive` (it starts one), or set DATABASE_URL');
  const rows: Row[] = [];
  const sqlite = SqliteArchive.open({ path: join(mkdtempSync(join(tmpdir(), 'dc-bench-')), 'archive.sqlite') });
  rows.push(await measure('sqlite', sqlite));
  await sqlite.close();
  const postgres = await PostgresArchive.open({ url });
  rows.push(await measure('postgres', postgres));
  await postgres.close();

  const dir = join(__dirname, 'results');
  writeFileSync(join(dir, 'archive.json'), JSON.stringify({ node: process.version, rows }, null, 2) + '\n');
  const table = [
    `Archive writes per second, one run on this machine (${process.version}); ~1 KB chat messages.`,
    'SQLite: WAL, synchronous = FULL (a local file). PostgreSQL 15: fsync and synchronous_commit on, over loopback TCP.',
    '',
    '| driver | 1 message / write | turn of 4 / write (messages/s) | 8 conversations at once | retried write (no-op) |',
    '|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.driver} | ${r.singleWritesPerSec} | ${r.turnWritesPerSec} (${r.turnMessagesPerSec}) | ${r.concurrentWritesPerSec} | ${r.retriedWritesPerSec} |`
    ),
  ].join('\n');
  writeFileSync(join(dir, 'archive.md'), table + '\n');
  console.log(table);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});

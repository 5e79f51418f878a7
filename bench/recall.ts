/**
 * `npm run bench recall`: after many folds of a corpus session (the independent identifier facts planted in it, the
 * offline summarizer, a 5 000-token budget), the share of identifiers of folded messages `recall` finds and of
 * summary pointers it resolves, on SQLite and PostgreSQL (scripts/bench.sh starts a throwaway one). The measurement
 * is test/support/recall-measure.ts, the same that test/client/recall.test.ts asserts on.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createActivities } from '../src/activities';
import type { ConversationArchive } from '../src/archive/archive';
import { PostgresArchive } from '../src/archive/postgres-archive';
import { SqliteArchive } from '../src/archive/sqlite-archive';
import { ConversationClient } from '../src/client/conversation-client';
import { uniqueConversationId } from '../test/support/conversation';
import { measureRecall, type RecallMeasurement } from '../test/support/recall-measure';
import { stopSharedTestEnv, withWorker } from '../test/support/temporal';

const SESSION = 'mini-swe-agent-deepseek-django__django-11797';
const BUDGET = 5000;

async function measure(driver: string, archive: ConversationArchive): Promise<RecallMeasurement & { driver: string }> {
  try {
    const m = await withWorker({ activities: createActivities({ archive }) }, ({ env, taskQueue }) =>
      measureRecall(
        new ConversationClient({
          client: env.client,
          conversationId: uniqueConversationId('bench-recall'),
          taskQueue,
          settings: { budget: BUDGET },
          archive,
        }),
        SESSION,
        BUDGET
      )
    );
    return { driver, ...m };
  } finally {
    await archive.close();
  }
}

const pct = (c: { total: number; retrievable: number }): string =>
  `${c.retrievable}/${c.total} (${((100 * c.retrievable) / Math.max(1, c.total)).toFixed(0)}%)`;

async function main(): Promise<void> {
  const rows = [
    await measure('sqlite', SqliteArchive.open({ path: join(mkdtempSync(join(tmpdir(), 'dc-bench-')), 'a.sqlite') })),
  ];
  const url = process.env.DATABASE_URL ?? process.env.DC_TEST_DATABASE_URL;
  if (url) rows.push(await measure('postgres', await PostgresArchive.open({ url })));
  await stopSharedTestEnv();
  const dir = join(__dirname, 'results');
  writeFileSync(join(dir, 'recall.json'), JSON.stringify({ node: process.version, rows }, null, 2) + '\n');
  const table = [
    `Recall after folds: ${SESSION} with the ${rows[0]!.identifiers.planted.total} identifier probes of the independent fact set`,
    `planted (${rows[0]!.messages} messages), budget ${BUDGET}, offline summarizer; identifiers of folded messages found by`,
    '`recall` (a returned message holds the identifier verbatim), pointers `(→ #N)` resolving to message N. One run.',
    '',
    '| driver | folds | folded messages | planted | tickets | hashes | paths | pointers | precision | ms / query |',
    '|---|---|---|---|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.driver} | ${r.folds} | ${r.foldedMessages} | ${pct(r.identifiers.planted)} | ${pct(r.identifiers.ticket)} | ${pct(r.identifiers.hash)} | ${pct(r.identifiers.path)} | ${pct({ total: r.pointers.total, retrievable: r.pointers.resolved })} | ${(100 * r.precision).toFixed(1)}% | ${r.recallMs.perQuery} |`
    ),
  ].join('\n');
  writeFileSync(join(dir, 'recall.md'), table + '\n');
  console.log(table);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});

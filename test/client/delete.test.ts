import { strict as assert } from 'node:assert';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WorkflowNotFoundError } from '@temporalio/client';
import { Client as PgClient } from 'pg';
import { createActivities } from '../../src/activities';
import type { ConversationArchive } from '../../src/archive/archive';
import { PostgresArchive } from '../../src/archive/postgres-archive';
import { SqliteArchive } from '../../src/archive/sqlite-archive';
import { ConversationClient } from '../../src/client/conversation-client';
import { uniqueConversationId } from '../support/conversation';
import { freshDatabase } from '../support/postgres';
import { runCli } from '../support/processes';
import { withWorker } from '../support/temporal';

/** One archive driver under test: how to open it, where its bytes are, and the CLI's environment for it. */
interface Driver {
  open(): Promise<ConversationArchive>;
  /** How many places at rest (file bytes, table rows) still hold `text`. */
  holding(text: string): Promise<number>;
  cliEnv: Record<string, string>;
  close(): Promise<void>;
}

function sqliteDriver(): Driver {
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

async function postgresDriver(): Promise<Driver> {
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

const turn = (planted: string, i: number) => [
  { role: 'user', content: `turn ${i}: ${planted} ${'please check the order status again '.repeat(12)}` },
  { role: 'assistant', content: `answer ${i}: ${'the order ships on Tuesday from the north depot '.repeat(12)}` },
];

for (const [name, makeDriver] of [
  ['sqlite', () => Promise.resolve(sqliteDriver())],
  ['postgres', postgresDriver],
] as const) {
  describe(`deleting a conversation (${name} archive)`, function () {
    this.timeout(240_000);
    let driver: Driver;
    let archive: ConversationArchive;
    before(async () => {
      driver = await makeDriver();
      archive = await driver.open();
    });
    after(async () => {
      await archive?.close();
      await driver?.close();
    });

    it('leaves no message text in the archive, Temporal history, visibility or export; a second delete is a no-op', async () => {
      await withWorker({ activities: createActivities({ archive }) }, async ({ env, taskQueue }) => {
        const id = uniqueConversationId(`delete-${name}`);
        const planted = `planted-${name}-${process.pid}-${Date.now().toString(36)}`;
        const conv = new ConversationClient({
          client: env.client,
          conversationId: id,
          taskQueue,
          settings: { budget: 3000 },
          limits: { maxUpdatesPerRun: 10 }, // several runs (continue-as-new), every one of them deleted
        });
        for (let i = 0; i < 14; i++) await conv.prepare(turn(planted, i));
        const state = await conv.state();
        assert.ok(state.folds >= 1 && state.continuedAsNew >= 1, `folded and continued: ${JSON.stringify(state)}`);
        const before = await archive.summary(conv.workflowId);
        assert.ok((await driver.holding(planted)) > 0, 'the planted text is at rest before the deletion');
        const visible = env.client.workflow.list({ query: `WorkflowId = '${conv.workflowId}'` });
        const runsBefore: string[] = [];
        for await (const e of visible) runsBefore.push(e.runId);
        assert.ok(runsBefore.length >= 2, `several runs: ${runsBefore.length}`);

        const deleted = await conv.delete();
        assert.deepEqual(
          { messages: deleted.messages, folds: deleted.folds },
          { messages: before.messages, folds: before.folds }
        );
        assert.ok(deleted.runs >= runsBefore.length, `every run deleted: ${deleted.runs}`);

        // The archive: nothing by the interface, nothing at rest.
        assert.deepEqual(await archive.summary(conv.workflowId), {
          messages: 0,
          lastSeq: null,
          folds: 0,
          superseded: 0,
        });
        assert.equal(await driver.holding(planted), 0, 'no trace of the planted text at rest');
        // Temporal: no execution to describe, no history to fetch, nothing listed.
        const handle = env.client.workflow.getHandle(conv.workflowId);
        await assert.rejects(handle.describe(), WorkflowNotFoundError);
        await assert.rejects(handle.fetchHistory(), /NOT_FOUND: workflow not found/);
        for (const runId of runsBefore) {
          await assert.rejects(env.client.workflow.getHandle(conv.workflowId, runId).describe(), WorkflowNotFoundError);
        }
        const after: unknown[] = [];
        for await (const e of env.client.workflow.list({ query: `WorkflowId = '${conv.workflowId}'` })) after.push(e);
        assert.deepEqual(after, []);
        // export finds it in neither place.
        const exported = await runCli(['export', '--conversation', id], {
          ...driver.cliEnv,
          TEMPORAL_ADDRESS: env.address,
          TEMPORAL_TASK_QUEUE: taskQueue,
        });
        assert.equal(exported.code, 2, exported.stderr);
        assert.match(exported.stderr, new RegExp(`no conversation '${id}'`));
        assert.ok(!exported.stdout.includes(planted));

        // Again: nothing to erase; the run it started for that is deleted too.
        const again = await conv.delete();
        assert.deepEqual({ ...again, runs: 0 }, { messages: 0, folds: 0, superseded: 0, runs: 0 });
        await assert.rejects(handle.describe(), WorkflowNotFoundError);
        // The id is free: the same client starts a new, empty conversation.
        const fresh = await conv.prepare([{ role: 'user', content: 'a new start' }]);
        assert.equal(fresh.messages.length, 1);
        assert.equal((await archive.summary(conv.workflowId)).messages, 1);
        await conv.delete();
      });
    });

    it('deletes a closed conversation, through the CLI', async () => {
      await withWorker({ activities: createActivities({ archive }) }, async ({ env, taskQueue }) => {
        const id = uniqueConversationId(`delete-closed-${name}`);
        const planted = `planted-closed-${name}-${process.pid}-${Date.now().toString(36)}`;
        const conv = new ConversationClient({ client: env.client, conversationId: id, taskQueue });
        await conv.prepare(turn(planted, 0));
        await conv.close();
        await env.client.workflow.getHandle(conv.workflowId).result();
        const cliEnv = { ...driver.cliEnv, TEMPORAL_ADDRESS: env.address, TEMPORAL_TASK_QUEUE: taskQueue };
        const out = await runCli(['delete', '--conversation', id], cliEnv);
        assert.equal(out.code, 0, out.stderr);
        const printed = JSON.parse(out.stdout) as { workflowId: string; erased: object; runs: number };
        assert.equal(printed.workflowId, conv.workflowId);
        assert.deepEqual(printed.erased, { messages: 2, folds: 0, superseded: 0 });
        assert.equal(printed.runs, 2, 'the closed run and the one the deletion ran in');
        assert.equal(await driver.holding(planted), 0);
        await assert.rejects(env.client.workflow.getHandle(conv.workflowId).describe(), WorkflowNotFoundError);
      });
    });
  });
}

import { strict as assert } from 'node:assert';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PostgresArchive } from '../../src/archive/postgres-archive';
import { conversationWorkflowId } from '../../src/contract/definitions';
import { foldRecord } from '../support/fold-records';
import { bin, run } from '../support/cli';
import { freshDatabase } from '../support/postgres';

describe('inspect and export on the PostgreSQL archive (the configured driver)', function () {
  this.timeout(60_000);

  it('read the conversation, its folds and its superseded revisions from DATABASE_URL', async () => {
    const url = await freshDatabase('cli');
    const archive = await PostgresArchive.open({ url });
    const key = conversationWorkflowId('cli-conversation');
    try {
      await archive.append(key, 0, ['m0', 'm1', 'm2']);
      await archive.append(key, 2, ['m2, rewritten']);
      await archive.recordFold(key, foldRecord(1, { archiveRange: { firstSeq: 0, lastSeq: 1 } }));
    } finally {
      await archive.close();
    }
    const env = { ...process.env, ARCHIVE_DRIVER: 'postgres', DATABASE_URL: url };

    const inspected = JSON.parse(
      (await run(bin, ['inspect', '--conversation', 'cli-conversation'], { env })).stdout
    ) as Record<string, unknown>;
    assert.equal(inspected.driver, 'postgres');
    assert.equal(inspected.workflowId, key);
    assert.equal(inspected.archived, 3);
    assert.deepEqual(
      (inspected.folds as { number: number; replaced: unknown }[]).map((f) => [f.number, f.replaced]),
      [[1, { firstSeq: 0, lastSeq: 1 }]]
    );
    assert.deepEqual(
      (inspected.superseded as { kind: string; seq: number; revision: number }[]).map((r) => [
        r.kind,
        r.seq,
        r.revision,
      ]),
      [['message', 2, 0]]
    );

    const { stdout } = await run(bin, ['export', '--workflow-id', key, '--archive-only', '--lines'], { env });
    const lines = stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.deepEqual(
      lines.map((l) => [l.kind, l.seq ?? l.number, l.message ?? l.value ?? null]),
      [
        ['message', 0, 'm0'],
        ['message', 1, 'm1'],
        ['message', 2, 'm2, rewritten'],
        ['fold', 1, null],
        ['superseded', 2, 'm2'],
      ]
    );
  });

  it('exit 2 with one line for an unknown conversation or a missing SQLite archive', async () => {
    const url = await freshDatabase('cli_missing');
    const failure = async (args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stderr: string }> => {
      try {
        await run(bin, args, { env: { ...process.env, ...env } });
      } catch (err) {
        const e = err as { code: number; stderr: string };
        return { code: e.code, stderr: e.stderr };
      }
      assert.fail(`${args.join(' ')} succeeded`);
    };
    const unknown = await failure(['inspect', '--conversation', 'nobody'], {
      ARCHIVE_DRIVER: 'postgres',
      DATABASE_URL: url,
    });
    assert.equal(unknown.code, 2);
    assert.equal(
      unknown.stderr.trim(),
      "durable-compaction inspect: no archived messages for workflow 'conversation-nobody' in the postgres archive"
    );
    const dir = mkdtempSync(join(tmpdir(), 'dc-cli-'));
    const missing = await failure(['export', '--conversation', 'x', '--data', dir], { ARCHIVE_DRIVER: 'sqlite' });
    assert.equal(missing.code, 2);
    assert.match(
      missing.stderr.trim(),
      /^durable-compaction export: no archive database at .*archive\.sqlite \(archive\.driver sqlite\)$/
    );
  });
});

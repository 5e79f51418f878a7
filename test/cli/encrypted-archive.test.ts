import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteArchive } from '../../src/archive/sqlite-archive';
import { conversationWorkflowId } from '../../src/contract/definitions';
import { foldRecord } from '../support/fold-records';
import { encryptedEnv, testCipher } from '../support/archive-keys';
import { bin, run } from '../support/cli';

describe('CLI on an encrypted archive', function () {
  this.timeout(60_000);

  it('export, inspect and recall decrypt with the keys, and say what is missing without them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dc-cli-encrypted-'));
    const canary = `canary${randomBytes(5).toString('hex')}`;
    const archive = SqliteArchive.open({ path: join(dir, 'archive.sqlite'), cipher: testCipher('k1') });
    try {
      await archive.append(conversationWorkflowId('sealed'), 0, [
        { role: 'user', content: 'hello' },
        { role: 'user', content: `the code is ${canary}` },
      ]);
      await archive.append(conversationWorkflowId('sealed'), 0, [{ role: 'user', content: 'hello again' }]);
      await archive.recordFold(conversationWorkflowId('sealed'), foldRecord(1));
    } finally {
      await archive.close();
    }
    const keyed = { ...process.env, ARCHIVE_DRIVER: 'sqlite', ...encryptedEnv('k1') };
    const flags = ['--conversation', 'sealed', '--data', dir];
    const exported = await run(bin, ['export', ...flags, '--archive-only'], { env: keyed });
    const parsed = JSON.parse(exported.stdout) as { archive: { messages: { message: unknown }[] } };
    assert.deepEqual(parsed.archive.messages[0]!.message, { role: 'user', content: 'hello again' });
    assert.deepEqual(parsed.archive.messages[1]!.message, { role: 'user', content: `the code is ${canary}` });
    const recalled = await run(bin, ['recall', ...flags, canary], { env: keyed });
    assert.ok(recalled.stdout.includes(`the code is ${canary}`), recalled.stdout);
    const inspected = await run(bin, ['inspect', ...flags], { env: keyed });
    const shown = JSON.parse(inspected.stdout) as { archived: number; folds: unknown[]; superseded: unknown[] };
    assert.deepEqual([shown.archived, shown.folds.length, shown.superseded.length], [2, 1, 1]);

    const unkeyed = { ...process.env, ARCHIVE_DRIVER: 'sqlite', ARCHIVE_ENCRYPT: '' };
    await assert.rejects(run(bin, ['export', ...flags, '--archive-only'], { env: unkeyed }), (err: Error) => {
      const stderr = (err as Error & { stderr: string }).stderr;
      assert.match(
        stderr,
        /encrypted with key 'k1', but the archive is opened without encryption: set archive\.encrypt/
      );
      assert.ok(!stderr.includes(canary));
      return true;
    });
  });
});

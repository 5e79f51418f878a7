import { strict as assert } from 'node:assert';
import { appendFileSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ArchiveError } from '../../src/archive/archive';
import { FileArchive } from '../../src/archive/file-archive';

const fresh = (): { dir: string; archive: FileArchive } => {
  const dir = mkdtempSync(join(tmpdir(), 'dc-archive-test-'));
  return { dir, archive: new FileArchive(dir) };
};

describe('FileArchive', () => {
  it('appends in order and skips sequence numbers already stored (retried activities)', async () => {
    const { archive } = fresh();
    await archive.append('c1', 0, ['a', 'b']);
    await archive.append('c1', 0, ['a', 'b']);
    await archive.append('c1', 1, ['b', 'c']);
    assert.deepEqual(await archive.readAll('c1'), [
      { seq: 0, message: 'a' },
      { seq: 1, message: 'b' },
      { seq: 2, message: 'c' },
    ]);
    assert.deepEqual(
      (await archive.read('c1', [2, 0])).map((m) => m.message),
      ['c', 'a']
    );
  });

  it('refuses a gap, and a read of a message it does not have', async () => {
    const { archive } = fresh();
    await archive.append('c1', 0, ['a']);
    await assert.rejects(archive.append('c1', 5, ['x']), ArchiveError);
    await assert.rejects(archive.read('c1', [3]), /no message with seq 3/);
  });

  it('recovers from a torn last line left by a crash, in a new process', async () => {
    const { dir, archive } = fresh();
    await archive.append('c/1 é', 0, ['a', 'b']);
    const file = join(dir, `${encodeURIComponent('c/1 é')}.messages.jsonl`);
    appendFileSync(file, '{"seq":2,"mess'); // the crash
    const restarted = new FileArchive(dir);
    await restarted.append('c/1 é', 2, ['c']);
    assert.deepEqual(
      (await restarted.readAll('c/1 é')).map((m) => m.message),
      ['a', 'b', 'c']
    );
    assert.ok(readFileSync(file, 'utf8').endsWith('{"seq":2,"message":"c"}\n'));
  });

  it('records each fold once', async () => {
    const { archive } = fresh();
    const record = { number: 1, ok: true } as never;
    await archive.recordFold('c1', record);
    await archive.recordFold('c1', record);
    assert.equal((await archive.folds('c1')).length, 1);
  });

  it('keeps conversations apart and serialises concurrent writes to one', async () => {
    const { archive } = fresh();
    await Promise.all([archive.append('x', 0, ['x0']), archive.append('y', 0, ['y0']), archive.append('x', 1, ['x1'])]);
    assert.deepEqual(
      (await archive.readAll('x')).map((m) => m.message),
      ['x0', 'x1']
    );
    assert.deepEqual(
      (await archive.readAll('y')).map((m) => m.message),
      ['y0']
    );
  });
});

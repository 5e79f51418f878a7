/**
 * The archive conformance suite: every `ConversationArchive` driver must pass it unchanged. The driver file supplies a
 * way to open a fresh archive and the environment a writer process needs to reach the same database.
 */
import { strict as assert } from 'node:assert';
import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { ArchiveError, ArchiveGapError, ArchiveInputError, type ConversationArchive } from '../../src/archive/archive';
import type { FoldRecord } from '../../src/core/fold/fold-record';
import { MAX_ENTRIES_PER_CALL, MAX_ENTRY_BYTES, MAX_KEY_BYTES } from '../../src/archive/entries';
import { foldRecord } from '../support/fold-records';
import { mulberry32 } from '../support/rng';
import { purgeConformance } from './conformance-purge';
import { messageFor } from './writer-process';

/** One driver under test. */
export interface DriverUnderTest {
  /** Opens an archive on the suite's database (the same database every call). */
  open(): Promise<ConversationArchive>;
  /** Environment for test/archive/writer-process.ts to open the same database. */
  writerEnv: Record<string, string>;
}

const root = resolve(__dirname, '..', '..');

let keys = 0;
/** A key no other test uses (the suite's database is shared by its tests). */
function freshKey(label: string): string {
  return `conversation-${label}-${process.pid}-${++keys}`;
}

/** Runs the writer process; resolves with it once `until` (if given) shows on its stdout, else when it exits 0. */
function runWriter(
  driver: DriverUnderTest,
  env: Record<string, string>,
  until?: (line: string) => boolean
): Promise<{ child: ChildProcess; lines: string[] }> {
  const child = spawn(process.execPath, ['--require', 'tsx/cjs', 'test/archive/writer-process.ts'], {
    cwd: root,
    env: { ...process.env, ...driver.writerEnv, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolveRun, reject) => {
    let buffered = '';
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const parts = buffered.split('\n');
      buffered = parts.pop()!;
      for (const line of parts) {
        lines.push(line);
        if (until?.(line)) resolveRun({ child, lines });
      }
    });
    child.once('exit', (code, signal) => {
      if (code === 0 && !until) resolveRun({ child, lines });
      else if (signal === null) reject(new Error(`writer exited with ${code}: ${stderr}`));
    });
  });
}

async function kill9(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL');
  await exited;
}

/** Asserts the archive holds messages 0..count-1 of the writer process, each exactly once, revision 0. */
async function assertExactlyOnce(archive: ConversationArchive, key: string, count: number): Promise<void> {
  const all = await archive.readAll(key);
  assert.equal(all.length, count);
  all.forEach((m, i) => {
    assert.equal(m.seq, i);
    assert.equal(m.revision, 0);
    assert.deepEqual(m.message, messageFor(i));
  });
  const summary = await archive.summary(key);
  assert.deepEqual(summary, { messages: count, lastSeq: count - 1, folds: 0, superseded: 0 });
}

/** Defines the suite for one driver; `setup` runs once before it (start or create the database there). */
export function describeArchiveConformance(
  name: string,
  setup: () => DriverUnderTest | Promise<DriverUnderTest>
): void {
  describe(`archive conformance: ${name}`, function () {
    this.timeout(120_000);
    let driver: DriverUnderTest;
    let archive: ConversationArchive;

    before(async () => {
      driver = await setup();
      archive = await driver.open();
    });
    after(async () => {
      await archive?.close();
    });

    it('appends, then reads by number, by range and whole, in order', async () => {
      const key = freshKey('read');
      const outcome = await archive.append(key, 0, ['m0', { role: 'user', content: 'm1' }, 'm2', null, 'm4']);
      assert.deepEqual(outcome, { stored: 5, unchanged: 0, superseded: [] });
      assert.deepEqual(
        (await archive.read(key, [3, 0, 1, 3])).map((m) => [m.seq, m.message]),
        [
          [3, null],
          [0, 'm0'],
          [1, { role: 'user', content: 'm1' }],
          [3, null],
        ]
      );
      assert.deepEqual(
        (await archive.readRange(key, 1, 3)).map((m) => m.seq),
        [1, 2, 3]
      );
      assert.deepEqual(
        (await archive.readRange(key, 3, 99)).map((m) => m.seq),
        [3, 4]
      );
      assert.deepEqual(await archive.readRange(key, 7, 9), []);
      assert.deepEqual(
        (await archive.readAll(key)).map((m) => m.message),
        ['m0', { role: 'user', content: 'm1' }, 'm2', null, 'm4']
      );
      assert.deepEqual(await archive.summary(key), { messages: 5, lastSeq: 4, folds: 0, superseded: 0 });
      assert.deepEqual(await archive.summary(freshKey('empty')), {
        messages: 0,
        lastSeq: null,
        folds: 0,
        superseded: 0,
      });
      await assert.rejects(archive.read(key, [2, 5]), (err: Error) => {
        assert.ok(err instanceof ArchiveError);
        assert.match(err.message, /has no message with seq 5/);
        return true;
      });
    });

    it('round-trips any JSON: unicode, NUL and lone surrogates in strings, numbers, nesting', async () => {
      const key = freshKey('json');
      const values = [
        'é ✓ 𝄞 中文',
        'nul \u0000 inside',
        'lone \ud800 surrogate',
        { deep: [1, 2.5, -3e-7, { a: [null, true, false] }], empty: {}, list: [] },
        12345678901234,
        '',
      ];
      await archive.append(key, 0, values);
      const back = (await archive.readAll(key)).map((m) => m.message);
      assert.deepEqual(back, JSON.parse(JSON.stringify(values)));
    });

    it('is idempotent: a retried or overlapping append with the same content changes nothing', async () => {
      const key = freshKey('retry');
      await archive.append(key, 0, ['a', 'b']);
      assert.deepEqual(await archive.append(key, 0, ['a', 'b']), { stored: 0, unchanged: 2, superseded: [] });
      assert.deepEqual(await archive.append(key, 1, ['b', 'c']), { stored: 1, unchanged: 1, superseded: [] });
      // Object key order is not content: the hash is over canonical JSON.
      await archive.append(key, 3, [{ role: 'user', content: 'x' }]);
      assert.deepEqual(await archive.append(key, 3, [{ content: 'x', role: 'user' }]), {
        stored: 0,
        unchanged: 1,
        superseded: [],
      });
      const all = await archive.readAll(key);
      assert.deepEqual(
        all.map((m) => [m.seq, m.revision, m.message]),
        [
          [0, 0, 'a'],
          [1, 0, 'b'],
          [2, 0, 'c'],
          [3, 0, { role: 'user', content: 'x' }],
        ]
      );
      assert.equal((await archive.summary(key)).superseded, 0);
      assert.match(all[0]!.hash, /^[0-9a-f]{64}$/);
    });

    it('stores different content for a stored number as a superseding revision, keeping the old one', async () => {
      const key = freshKey('revision');
      await archive.append(key, 0, ['a', 'b', 'c']);
      const before = await archive.read(key, [1]);
      // As after `temporal workflow reset`: the same numbers come again, one of them with new content.
      assert.deepEqual(await archive.append(key, 1, ['b2', 'c']), { stored: 0, unchanged: 1, superseded: [1] });
      const [now] = await archive.read(key, [1]);
      assert.equal(now!.message, 'b2');
      assert.equal(now!.revision, 1);
      assert.notEqual(now!.hash, before[0]!.hash);
      // The same new content again is a no-op; the original content again is one more revision.
      assert.deepEqual(await archive.append(key, 1, ['b2']), { stored: 0, unchanged: 1, superseded: [] });
      assert.deepEqual(await archive.append(key, 1, ['b']), { stored: 0, unchanged: 0, superseded: [1] });
      assert.equal((await archive.read(key, [1]))[0]!.revision, 2);
      const old = await archive.superseded(key);
      assert.deepEqual(
        old.map((r) => [r.kind, r.seq, r.revision, r.value]),
        [
          ['message', 1, 0, 'b'],
          ['message', 1, 1, 'b2'],
        ]
      );
      assert.equal(old[0]!.hash, before[0]!.hash);
      for (const r of old) {
        assert.ok(!Number.isNaN(Date.parse(r.storedAt)));
        assert.ok(Date.parse(r.supersededAt) >= Date.parse(r.storedAt));
      }
      assert.deepEqual(await archive.summary(key), { messages: 3, lastSeq: 2, folds: 0, superseded: 2 });
    });

    it('refuses an append that would leave a gap, storing nothing', async () => {
      const key = freshKey('gap');
      await assert.rejects(archive.append(key, 1, ['x']), ArchiveGapError);
      await archive.append(key, 0, ['a']);
      await assert.rejects(archive.append(key, 2, ['c', 'd']), (err: Error) => {
        assert.ok(err instanceof ArchiveGapError);
        assert.match(err.message, /seq 1 is missing/);
        return true;
      });
      assert.deepEqual(await archive.summary(key), { messages: 1, lastSeq: 0, folds: 0, superseded: 0 });
    });

    it('keeps workflow ids apart, whatever their characters', async () => {
      const suffix = freshKey('ids');
      const ids = [`${suffix}`, `${suffix} `, `${suffix}/../x`, `${suffix}é`, `${suffix}'; DROP TABLE x; --`];
      for (const [i, id] of ids.entries()) await archive.append(id, 0, [`for ${i}`]);
      for (const [i, id] of ids.entries())
        assert.deepEqual(
          (await archive.readAll(id)).map((m) => m.message),
          [`for ${i}`]
        );
      const longest = `${suffix}-`.padEnd(MAX_KEY_BYTES, 'k');
      await archive.append(longest, 0, ['long']);
      assert.deepEqual(
        (await archive.readAll(longest)).map((m) => m.message),
        ['long']
      );
    });

    it('rejects bad input with a message naming it, and stores nothing', async () => {
      const key = freshKey('bad');
      await archive.append(key, 0, ['kept']);
      const cyclic: Record<string, unknown> = {};
      cyclic.self = cyclic;
      const cases: [string, () => Promise<unknown>, RegExp][] = [
        ['empty key', () => archive.append('', 1, ['x']), /non-empty string/],
        ['key not a string', () => archive.append(42 as never, 1, ['x']), /non-empty string/],
        ['key too long', () => archive.append('k'.repeat(MAX_KEY_BYTES + 1), 0, ['x']), /longer than 1000 bytes/],
        ['key too long in bytes', () => archive.append('é'.repeat(501), 0, ['x']), /longer than 1000 bytes/],
        ['NUL in key', () => archive.append(`${key}\u0000`, 0, ['x']), /NUL/],
        ['negative seq', () => archive.append(key, -1, ['x']), /startSeq must be an integer ≥ 0/],
        ['fractional seq', () => archive.append(key, 1.5, ['x']), /startSeq must be an integer/],
        ['seq not a number', () => archive.append(key, '1' as never, ['x']), /startSeq/],
        ['messages not an array', () => archive.append(key, 1, 'x' as never), /messages must be an array/],
        ['undefined message', () => archive.append(key, 1, ['ok', undefined]), /message 2 has no JSON form/],
        ['a function', () => archive.append(key, 1, [() => 1]), /message 1/],
        ['a cycle', () => archive.append(key, 1, [cyclic]), /message 1 cannot be stored as JSON/],
        ['a bigint', () => archive.append(key, 1, [{ n: 1n }]), /message 1 cannot be stored as JSON/],
        ['too large', () => archive.append(key, 1, ['x'.repeat(MAX_ENTRY_BYTES)]), /at most 2097152 are stored/],
        [
          'too many',
          () => archive.append(key, 1, new Array<string>(MAX_ENTRIES_PER_CALL + 1).fill('x')),
          /at most 10000 messages per write/,
        ],
        ['read: bad seq', () => archive.read(key, [0, -2]), /seqs\[1\] must be an integer ≥ 0/],
        ['read: not an array', () => archive.read(key, 3 as never), /seqs must be an array/],
        ['range: bad bound', () => archive.readRange(key, 0, NaN), /lastSeq/],
        ['fold: not a record', () => archive.recordFold(key, { number: 1 } as never), /fold record: 'ok'/],
        ['fold: number 0', () => archive.recordFold(key, foldRecord(0)), /'number' must be an integer ≥ 1/],
      ];
      for (const [what, call, message] of cases) {
        await assert.rejects(call(), (err: Error) => {
          assert.ok(err instanceof ArchiveInputError, `${what}: ${err.name} ${err.message}`);
          assert.match(err.message, message, what);
          return true;
        });
      }
      // A batch with one bad message stores none of it.
      assert.deepEqual(await archive.summary(key), { messages: 1, lastSeq: 0, folds: 0, superseded: 0 });
      assert.deepEqual(
        (await archive.readAll(key)).map((m) => m.message),
        ['kept']
      );
      // The largest allowed message is stored whole.
      const largest = 'y'.repeat(MAX_ENTRY_BYTES - 2);
      await archive.append(key, 1, [largest]);
      assert.equal((await archive.read(key, [1]))[0]!.message, largest);
    });

    it('stores fold records idempotently, supersedes a changed one, and keeps them apart from messages', async () => {
      const key = freshKey('folds');
      await archive.append(key, 0, ['m0', 'm1']);
      assert.deepEqual(await archive.recordFold(key, foldRecord(1)), { stored: 1, unchanged: 0, superseded: [] });
      assert.deepEqual(await archive.recordFold(key, foldRecord(1)), { stored: 0, unchanged: 1, superseded: [] });
      await archive.recordFold(key, foldRecord(2, { ok: false, error: { kind: 'incomplete', message: 'cut' } }));
      const changed = foldRecord(1, { tokensAfter: 2500 });
      assert.deepEqual(await archive.recordFold(key, changed), { stored: 0, unchanged: 0, superseded: [1] });
      assert.deepEqual(
        (await archive.folds(key)).map((f) => [f.number, f.ok, f.tokensAfter]),
        [
          [1, true, 2500],
          [2, false, 3000],
        ]
      );
      assert.deepEqual(
        (await archive.superseded(key)).map((r) => [r.kind, r.seq, r.revision, (r.value as FoldRecord).tokensAfter]),
        [['fold', 1, 0, 3000]]
      );
      assert.deepEqual(await archive.summary(key), { messages: 2, lastSeq: 1, folds: 2, superseded: 1 });
    });

    it('stores fold summaries by request digest, keeps the latest text of a digest, and refuses bad ones', async () => {
      const key = freshKey('summaries');
      const other = freshKey('summaries-other');
      const a = {
        digest: 'a1'.repeat(32),
        kind: 'text' as const,
        text: 'Task: ship 1.0\nRules: never push on Fridays',
      };
      const b = { digest: 'b2'.repeat(32), kind: 'items' as const, text: JSON.stringify([{ type: 'compaction' }]) };
      await archive.recordSummary(key, a);
      await archive.recordSummary(key, b);
      await archive.recordSummary(other, { ...a, text: 'another conversation' });
      // A retried summarize activity writes the same digest again: its latest text is kept, in its first place.
      await archive.recordSummary(key, { ...a, text: 'Task: ship 1.0 (rewritten)' });
      const stored = await archive.summaries(key);
      assert.deepEqual(
        stored.map(({ storedAt: _at, ...s }) => s),
        [{ ...a, text: 'Task: ship 1.0 (rewritten)' }, b]
      );
      assert.ok(stored.every((s) => !Number.isNaN(Date.parse(s.storedAt))));
      assert.deepEqual(
        (await archive.summaries(other)).map((s) => s.text),
        ['another conversation']
      );
      assert.deepEqual(await archive.summaries(freshKey('none')), []);
      const largest = 'z'.repeat(MAX_ENTRY_BYTES);
      await archive.recordSummary(key, { digest: 'c3'.repeat(32), kind: 'text', text: largest });
      assert.equal((await archive.summaries(key))[2]!.text.length, MAX_ENTRY_BYTES);
      const refused: [unknown, RegExp][] = [
        [{ ...a, digest: 'A1'.repeat(32) }, /'digest' must be 64 lowercase hex/],
        [{ ...a, digest: 'a1' }, /'digest' must be 64 lowercase hex/],
        [{ ...a, kind: 'json' }, /'kind' must be 'text' or 'items'/],
        [{ ...a, text: 42 }, /'text' must be a string/],
        [{ ...a, extra: 1 }, /unknown key 'extra'/],
        [{ ...a, text: `${largest}z` }, /at most \d+ are stored/],
        [null, /must be an object/],
      ];
      for (const [bad, why] of refused) {
        await assert.rejects(
          archive.recordSummary(key, bad as never),
          (err: Error) => err instanceof ArchiveInputError && why.test(err.message)
        );
      }
      assert.equal((await archive.summaries(key)).length, 3, 'a refused summary stores nothing');
    });

    it('keeps the fold record of the latest task current when an earlier task writes late (a host cut off)', async () => {
      // The chaos suite's finding: a worker cut off from the archive wrote its fold record after the worker that
      // took the conversation over had written its own (same fold, a later task time).
      const key = freshKey('late-fold');
      await archive.append(key, 0, ['m0']);
      const early = foldRecord(1, { finishedAt: 1_700_000_001_000 });
      const late = foldRecord(1, { finishedAt: 1_700_000_004_000 });
      await archive.recordFold(key, late);
      assert.deepEqual(await archive.recordFold(key, early), { stored: 0, unchanged: 0, superseded: [1] });
      assert.deepEqual(await archive.folds(key), [late], 'the latest task’s record stays current');
      assert.deepEqual(
        (await archive.superseded(key)).map((r) => [r.seq, r.revision, (r.value as FoldRecord).finishedAt]),
        [[1, 1, early.finishedAt]],
        'the late write is kept as a superseded revision'
      );
      assert.deepEqual(await archive.recordFold(key, early), { stored: 0, unchanged: 0, superseded: [1] });
      assert.deepEqual(await archive.folds(key), [late]);
      // A newer task (a reset, a reused id) still supersedes.
      const newer = foldRecord(1, { finishedAt: 1_700_000_009_000 });
      await archive.recordFold(key, newer);
      assert.deepEqual(await archive.folds(key), [newer]);
      assert.deepEqual(
        (await archive.superseded(key)).map((r) => [r.revision, (r.value as FoldRecord).finishedAt]),
        [
          [1, early.finishedAt],
          [3, early.finishedAt],
          [4, late.finishedAt],
        ]
      );
    });

    it('keeps the record whose fold began in the later task when two finish in the same task', async () => {
      // The cluster chaos suite's finding: after a history host was killed, two executions wrote fold 25 with the same
      // finishedAt and different startedAt; the one that began later is the one the replayed history holds.
      const key = freshKey('tied-fold');
      await archive.append(key, 0, ['m0']);
      const lost = foldRecord(1, { startedAt: 1_700_000_001_000, finishedAt: 1_700_000_005_000 });
      const kept = foldRecord(1, { startedAt: 1_700_000_002_000, finishedAt: 1_700_000_005_000 });
      await archive.recordFold(key, kept);
      assert.deepEqual(await archive.recordFold(key, lost), { stored: 0, unchanged: 0, superseded: [1] });
      assert.deepEqual(await archive.folds(key), [kept], 'a late write of the lost task does not replace it');
      const other = freshKey('tied-fold-other');
      await archive.append(other, 0, ['m0']);
      await archive.recordFold(other, lost);
      await archive.recordFold(other, kept);
      assert.deepEqual(await archive.folds(other), [kept], 'written in the other order, the same record is current');
    });

    it('serialises concurrent writes from one process', async () => {
      const key = freshKey('inproc');
      const other = freshKey('inproc-other');
      const writes: Promise<unknown>[] = [];
      for (let i = 0; i < 20; i++)
        writes.push(
          archive.append(
            key,
            0,
            Array.from({ length: 50 }, (_, n) => messageFor(n))
          )
        );
      writes.push(archive.append(other, 0, ['o0']));
      await Promise.all(writes);
      await assertExactlyOnce(archive, key, 50);
      assert.equal((await archive.readAll(other)).length, 1);
    });

    it('serialises concurrent writers of one conversation in two processes', async () => {
      const key = freshKey('twoproc');
      // Both write the same 600 messages in batches of different sizes, racing over every number.
      await Promise.all([
        runWriter(driver, { KEY: key, FROM: '0', TO: '600', BATCH: '7' }),
        runWriter(driver, { KEY: key, FROM: '0', TO: '600', BATCH: '13' }),
      ]);
      await assertExactlyOnce(archive, key, 600);
    });

    it('loses and doubles nothing when a writer is killed -9 between commit and acknowledgement', async () => {
      const key = freshKey('kill-ack');
      const { child } = await runWriter(
        driver,
        { KEY: key, FROM: '0', TO: '100', BATCH: '10', PAUSE_AFTER_COMMIT: '40' },
        (line) => line === 'committed 40'
      );
      await kill9(child);
      // The caller never saw the ack for 40..49: it retries from there (as Temporal retries the activity).
      const retried = await archive.append(
        key,
        40,
        Array.from({ length: 10 }, (_, i) => messageFor(40 + i))
      );
      assert.deepEqual(retried, { stored: 0, unchanged: 10, superseded: [] });
      await runWriter(driver, { KEY: key, FROM: '50', TO: '100', BATCH: '10' });
      await assertExactlyOnce(archive, key, 100);
    });

    it('loses and doubles nothing when writers are killed -9 at random moments', async () => {
      const key = freshKey('kill-random');
      const random = mulberry32(20261130);
      let acked = 0;
      const total = 400;
      for (let round = 0; round < 6 && acked < total; round++) {
        const { child, lines } = await runWriter(
          driver,
          { KEY: key, FROM: String(acked), TO: String(total), BATCH: '5' },
          (line) => line === `ack ${acked}`
        );
        await new Promise((r) => setTimeout(r, Math.floor(random() * 150)));
        await kill9(child);
        // Resume after the last acknowledged batch; the batch after it may or may not be committed.
        const acks = lines.filter((l) => l.startsWith('ack ')).map((l) => Number(l.slice(4)));
        acked = Math.max(...acks) + 5;
      }
      if (acked < total) await runWriter(driver, { KEY: key, FROM: String(acked), TO: String(total), BATCH: '5' });
      await assertExactlyOnce(archive, key, total);
    });

    it('holds a 100 000-message conversation and reads ranges of it by index', async function () {
      this.timeout(300_000);
      const key = freshKey('large');
      const total = 100_000;
      const batch = 5_000;
      for (let first = 0; first < total; first += batch)
        await archive.append(
          key,
          first,
          Array.from({ length: batch }, (_, i) => messageFor(first + i))
        );
      assert.deepEqual(await archive.summary(key), { messages: total, lastSeq: total - 1, folds: 0, superseded: 0 });
      const middle = await archive.readRange(key, 50_000, 50_099);
      assert.deepEqual(
        middle.map((m) => m.message),
        Array.from({ length: 100 }, (_, i) => messageFor(50_000 + i))
      );
      assert.deepEqual(
        (await archive.read(key, [99_999, 0, 73_210])).map((m) => m.message),
        [messageFor(99_999), messageFor(0), messageFor(73_210)]
      );
      // A retry of the last batch is still a no-op, and the next append goes on from the end.
      const last = Array.from({ length: batch }, (_, i) => messageFor(total - batch + i));
      assert.equal((await archive.append(key, total - batch, last)).unchanged, batch);
      await archive.append(key, total, [messageFor(total)]);
      const all = await archive.readAll(key);
      assert.equal(all.length, total + 1);
      assert.ok(all.every((m, i) => m.seq === i && (m.message as { n: number }).n === i));
    });

    it('reopens the same database with its data, and refuses calls after close', async () => {
      const key = freshKey('reopen');
      await archive.append(key, 0, ['a']);
      const second = await driver.open();
      assert.deepEqual(
        (await second.readAll(key)).map((m) => m.message),
        ['a']
      );
      await second.close();
      await assert.rejects(second.readAll(key), /closed/);
    });

    purgeConformance(() => archive, foldRecord);
  });
}

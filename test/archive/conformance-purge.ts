/**
 * The conformance cases of `purge` and `idleKeys`, run by `describeArchiveConformance` for every driver: deletion of
 * a conversation's whole archive (GDPR art. 17) and the retention sweep's candidate list.
 */
import { strict as assert } from 'node:assert';
import { setTimeout as sleep } from 'node:timers/promises';
import { ArchiveInputError, type ConversationArchive } from '../../src/archive/archive';
import type { FoldRecord } from '../../src/core/fold/fold-record';

/** A unique prefix per process and call, so the suite's shared database holds no other key starting with it. */
let calls = 0;
function prefix(label: string): string {
  return `${label}${process.pid}x${++calls}k`;
}

/** Defines the purge cases; `archive()` is the suite's open archive, `purgeFold(n)` a valid fold record. */
export function purgeConformance(archive: () => ConversationArchive, purgeFold: (n: number) => FoldRecord): void {
  it('purges a conversation whole (messages, fold records, revisions) and nothing of another', async () => {
    const a = archive();
    const [gone, kept] = [`${prefix('purge')}gone`, `${prefix('purge')}kept`];
    await a.append(gone, 0, ['m0', { role: 'user', content: 'm1' }]);
    await a.append(gone, 1, [{ role: 'user', content: 'm1 changed' }]);
    await a.recordFold(gone, purgeFold(1));
    await a.recordSummary(gone, { digest: 'a'.repeat(64), kind: 'text', text: 'the summary of m0 and m1' });
    await a.append(kept, 0, ['other']);
    const find = (key: string, term: string): Promise<number[]> =>
      a.search(key, { terms: [term], firstSeq: 0, lastSeq: 100, limit: 10 });
    assert.deepEqual(await find(gone, 'changed'), [1], 'the search index holds the message before the purge');
    assert.deepEqual(await a.purge(gone), { messages: 2, folds: 1, superseded: 1 });
    assert.deepEqual(await a.summary(gone), { messages: 0, lastSeq: null, folds: 0, superseded: 0 });
    assert.deepEqual(await a.readAll(gone), []);
    assert.deepEqual(await a.folds(gone), []);
    assert.deepEqual(await a.superseded(gone), []);
    assert.deepEqual(await find(gone, 'changed'), [], 'nor its search rows');
    assert.deepEqual(await a.summaries(gone), [], 'nor its summaries');
    assert.deepEqual(await find(kept, 'other'), [0]);
    assert.deepEqual(
      (await a.readAll(kept)).map((m) => m.message),
      ['other']
    );
    // A second purge (a retried activity, a repeated request) finds nothing and succeeds.
    assert.deepEqual(await a.purge(gone), { messages: 0, folds: 0, superseded: 0 });
    // The key is free again: a new conversation of the same id starts from 0.
    assert.deepEqual(await a.append(gone, 0, ['new']), { stored: 1, unchanged: 0, superseded: [] });
  });

  it('lists idle keys by their newest write, in key order, page by page', async () => {
    const a = archive();
    const p = prefix('idle');
    await a.append(`${p}a`, 0, ['a0']);
    await a.append(`${p}b`, 0, ['b0']);
    await a.append(`${p}c`, 0, ['c0']);
    await sleep(30);
    const cutoff = new Date();
    await sleep(30);
    await a.append(`${p}b`, 1, ['b1']); // written again: no longer idle at the cut-off
    const ours = (keys: string[]): string[] => keys.filter((k) => k.startsWith(p));
    assert.deepEqual(ours(await a.idleKeys(cutoff, { after: p, limit: 10_000 })), [`${p}a`, `${p}c`]);
    assert.deepEqual(await a.idleKeys(cutoff, { after: `${p}a`, limit: 1 }), [`${p}c`]);
    assert.deepEqual(ours(await a.idleKeys(new Date(0), { after: p })), []);
    await a.purge(`${p}a`);
    assert.deepEqual(ours(await a.idleKeys(cutoff, { after: p })), [`${p}c`]);
  });

  it('refuses bad purge and idle-key input with a message naming it', async () => {
    const a = archive();
    await assert.rejects(a.purge(''), (e: Error) => e instanceof ArchiveInputError && /archive key/.test(e.message));
    await assert.rejects(a.purge('a\u0000b'), ArchiveInputError);
    await assert.rejects(a.idleKeys(new Date(Number.NaN)), /before must be a valid Date/);
    await assert.rejects(a.idleKeys('2020-01-01' as unknown as Date), /before must be a valid Date/);
    await assert.rejects(a.idleKeys(new Date(), { limit: 0 }), /limit must be an integer ≥ 1/);
    await assert.rejects(a.idleKeys(new Date(), { limit: 10_001 }), /limit must be at most 10000/);
    await assert.rejects(a.idleKeys(new Date(), { after: '' }), /archive key/);
  });
}

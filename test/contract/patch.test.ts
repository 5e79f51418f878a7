import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { applyPatch, diffContext, type EntryKey } from '../../src/contract/patch';

type Entry = EntryKey & { raw: unknown };
const entry = (uid: string, rev = 0): Entry => ({ uid, rev, raw: { uid, rev } });

describe('context patches', () => {
  /** A message key out of a few uids and revisions, so prefixes, moves and repeats are common. */
  const key = fc.record({ uid: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g'), rev: fc.nat({ max: 2 }) });
  const keys = fc.uniqueArray(key, { selector: (k) => `${k.uid}@${k.rev}`, maxLength: 15 });

  it('an append is one copy of everything the caller holds', () => {
    const before = [entry('a'), entry('b'), entry('c')];
    const patch = diffContext(before, before, 4, 5);
    assert.deepEqual(patch, { baseVersion: 4, version: 5, segments: [{ copy: [0, 3] }] });
  });

  it('a fold copies the kept runs and inserts the summary and rewritten messages', () => {
    const before = [entry('sys'), entry('a'), entry('b'), entry('c'), entry('d')];
    const after = [entry('sys'), entry('s1'), entry('c', 1), entry('d')];
    const patch = diffContext(before, after, 1, 2);
    assert.deepEqual(patch.segments, [
      { copy: [0, 1] },
      { insert: [entry('s1').raw, entry('c', 1).raw] },
      { copy: [4, 5] },
    ]);
    assert.deepEqual(
      applyPatch(
        before.map((e) => e.raw),
        patch
      ),
      after.map((e) => e.raw)
    );
  });

  it('applying the diff always rebuilds the new context (property)', () => {
    const key = fc.record({
      uid: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g'),
      rev: fc.integer({ min: 0, max: 2 }),
    });
    fc.assert(
      fc.property(fc.uniqueArray(key, { selector: (k) => `${k.uid}@${k.rev}` }), fc.array(key), (b, a) => {
        const before = b.map((k) => entry(k.uid, k.rev));
        const after = a.map((k) => entry(k.uid, k.rev));
        const patch = diffContext(before, after, 0, 1);
        assert.deepEqual(
          applyPatch(
            before.map((e) => e.raw),
            patch
          ),
          after.map((e) => e.raw)
        );
      })
    );
  });

  it('is the patch a lookup of every entry by key gives (property: shared prefixes, moved, new and repeated keys)', () => {
    /** The diff as it was before the shared prefix was compared in place: every entry looked up by key. */
    const byLookup = (before: readonly EntryKey[], after: readonly Entry[]) => {
      const position = new Map(before.map((e, i) => [`${e.uid}@${e.rev}`, i]));
      const segments: ({ copy: [number, number] } | { insert: unknown[] })[] = [];
      for (const e of after) {
        const at = position.get(`${e.uid}@${e.rev}`);
        const last = segments[segments.length - 1];
        if (at !== undefined && last && 'copy' in last && last.copy[1] === at) last.copy[1] = at + 1;
        else if (at !== undefined) segments.push({ copy: [at, at + 1] });
        else if (last && 'insert' in last) last.insert.push(e.raw);
        else segments.push({ insert: [e.raw] });
      }
      return { baseVersion: 0, version: 1, segments };
    };
    fc.assert(
      fc.property(keys, fc.nat({ max: 16 }), fc.array(key, { maxLength: 6 }), fc.boolean(), (b, kept, more, swap) => {
        const before = b.map((k) => entry(k.uid, k.rev));
        // An append (the mirror kept, new keys after), or anything: a fold, a rewrite, a rewind.
        const after = [...before.slice(0, kept), ...more].map((k) => entry(k.uid, k.rev));
        if (swap && after.length > 1) after.unshift(after.pop()!);
        assert.deepEqual(diffContext(before, after, 0, 1), byLookup(before, after));
      }),
      { numRuns: 2000 }
    );
  });

  it('leaving out a prefix the caller knows unchanged gives the same patch (property)', () => {
    fc.assert(
      fc.property(
        keys,
        fc.nat({ max: 16 }),
        fc.array(key, { maxLength: 6 }),
        fc.nat({ max: 16 }),
        (b, kept, more, k) => {
          const before = b.map((x) => entry(x.uid, x.rev));
          const after = [...before.slice(0, kept), ...more].map((x) => entry(x.uid, x.rev));
          let same = 0; // the longest prefix `after` shares with `before`, by key
          while (same < Math.min(before.length, after.length) && before[same]!.uid === after[same]!.uid) {
            if (before[same]!.rev !== after[same]!.rev) break;
            same++;
          }
          const omitted = Math.min(k, same);
          assert.deepEqual(
            diffContext(before.slice(omitted), after, 0, 1, undefined, omitted),
            diffContext(before, after, 0, 1)
          );
        }
      ),
      { numRuns: 2000 }
    );
  });

  it('refuses to apply a patch to a mirror that is too short (stale)', () => {
    assert.throws(() => applyPatch([1], { baseVersion: 0, version: 1, segments: [{ copy: [0, 3] }] }), RangeError);
  });
});

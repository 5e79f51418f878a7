import assert from 'node:assert/strict';
import type { Identifier } from '../../../src/core/fold/identifiers';
import {
  LEDGER_HEADING,
  applyLedger,
  measureRetention,
  rankIdentifiers,
} from '../../../src/core/fold/identifier-ledger';

const id = (value: string, sources: Identifier['sources'], count = 1, lastIndex = 0): Identifier => ({
  value,
  kind: value.includes('/') ? 'path' : 'codeName',
  sources,
  count,
  lastIndex,
});

describe('core/fold/identifier-ledger', () => {
  const ids = [
    id('src/result-only.ts', ['toolResult'], 9, 9),
    id('src/user.ts', ['user'], 1, 0),
    id('src/args.ts', ['toolArgs'], 2, 3),
    id('src/prose.ts', ['assistant', 'toolResult'], 1, 1),
    id('src/args-often.ts', ['toolArgs'], 5, 2),
    id('src/args-recent.ts', ['toolArgs'], 2, 8),
  ];

  it('ranks by source, then frequency, then recency', () => {
    assert.deepEqual(
      rankIdentifiers(ids).map((i) => i.value),
      ['src/user.ts', 'src/prose.ts', 'src/args-often.ts', 'src/args-recent.ts', 'src/args.ts', 'src/result-only.ts']
    );
  });

  it('measures retention overall and per source', () => {
    const r = measureRetention('we changed src/user.ts and src/prose.ts', ids);
    assert.equal(r.kept, 2);
    assert.equal(r.total, 6);
    assert.deepEqual(r.bySource.user, { kept: 1, total: 1 });
    assert.deepEqual(r.bySource.assistant, { kept: 1, total: 1 });
    assert.deepEqual(r.bySource.toolArgs, { kept: 0, total: 3 });
    assert.deepEqual(r.bySource.toolResult, { kept: 1, total: 2 });
  });

  it('appends only what the summary dropped, and then keeps everything', () => {
    const res = applyLedger('Summary mentioning src/user.ts.', ids, { maxTokens: 1000 });
    assert.ok(res.text.startsWith('Summary mentioning src/user.ts.'));
    assert.ok(res.text.includes(LEDGER_HEADING));
    assert.ok(!res.appended.includes('src/user.ts'));
    assert.equal(res.before.kept, 1);
    assert.equal(res.after.kept, ids.length);
    assert.equal(res.omitted, 0);
  });

  it('stays under its cap, dropping the lowest-ranked first', () => {
    const count = (s: string): number => s.length;
    const res = applyLedger('nothing', ids, { maxTokens: 90, count });
    const section = res.text.slice('nothing'.length);
    assert.ok(section.length <= 90 + 4, `section of ${section.length} chars`);
    assert.ok(res.omitted > 0);
    assert.ok(res.appended.includes('src/user.ts'));
    assert.ok(!res.appended.includes('src/result-only.ts'));
  });

  it('leaves the summary alone when nothing is missing or the cap is 0', () => {
    const all = ids.map((i) => i.value).join(' ');
    assert.equal(applyLedger(all, ids, { maxTokens: 100 }).text, all);
    const none = applyLedger('x', ids, { maxTokens: 0 });
    assert.equal(none.text, 'x');
    assert.equal(none.omitted, ids.length);
  });

  it('does not append a name already inside an appended path', () => {
    const res = applyLedger('x', [id('lib/app.ex', ['user']), id('app.ex', ['toolArgs'])], { maxTokens: 100 });
    assert.deepEqual(res.appended, ['lib/app.ex']);
    assert.equal(res.after.kept, 2);
  });
});

import { strict as assert } from 'node:assert';
import {
  backoffFromRecord,
  clearBackoff,
  isBackoffMemory,
  recordFailure,
  retryAt,
  shouldBackOff,
  type BackoffMemory,
} from '../../../src/core/fold/backoff';
import type { FoldRecord } from '../../../src/core/fold/fold-record';
import { prefixHash } from '../../../src/core/hash';

// The seed 002 fixture: budget 400, keep 4, twelve items of about 41 tokens each.
const BUDGET = 400;
const KEEP = 4;
const msg = (text: string, role = 'user') => ({ type: 'message', role, content: text });
const twelve = (tag: string) =>
  Array.from({ length: 12 }, (_, i) => msg(`${tag} message ${i} `.padEnd(160, 'x'), i % 2 ? 'assistant' : 'user'));
const tokensOf = (raws: unknown[]) => raws.reduce<number>((n, r) => n + Math.ceil(JSON.stringify(r).length / 4), 0);
const splitOf = (raws: unknown[]) => Math.max(raws.length - KEEP, 0);

/** Whether the transform would ask for a summary again (the seed 002 test's question), given the failed fold's memory. */
function asksAgain(memory: BackoffMemory, raws: unknown[]): boolean {
  return !shouldBackOff(memory, { raws, split: splitOf(raws), tokens: tokensOf(raws), budget: BUDGET, keep: KEEP });
}

describe('core/fold/backoff', () => {
  const failed = twelve('a');
  const memory = recordFailure({ raws: failed, split: splitOf(failed), tokens: tokensOf(failed) });

  describe('TestLocalSummaryBackOffMargins', () => {
    it('the same transcript: does not ask again', () => {
      assert.equal(asksAgain(memory, [...failed]), false);
    });

    it('one short item more: does not ask again', () => {
      assert.equal(asksAgain(memory, [...failed, msg('ok')]), false);
    });

    it('four items more: asks again', () => {
      const grown = [...failed, msg('ok'), msg('ok', 'assistant'), msg('ok'), msg('ok', 'assistant')];
      assert.equal(asksAgain(memory, grown), true);
      // …and three items more is still within the margin.
      assert.equal(asksAgain(memory, grown.slice(0, -1)), false);
    });

    it('a quarter of the budget more: asks again', () => {
      const big = msg('y'.repeat(BUDGET + 40));
      assert.ok(tokensOf([big]) >= BUDGET / 4);
      assert.equal(asksAgain(memory, [...failed, big]), true);
      const almost = msg('y'.repeat(300));
      assert.ok(tokensOf([almost]) < BUDGET / 4);
      assert.equal(asksAgain(memory, [...failed, almost]), false);
    });

    it('another conversation: asks again', () => {
      assert.equal(asksAgain(memory, twelve('b')), true);
    });

    it('the transcript rewound and changed: asks again', () => {
      const rewound = [...failed.slice(0, 5), msg('a different question'), ...failed.slice(6)];
      assert.equal(asksAgain(memory, rewound), true);
      assert.equal(asksAgain(memory, failed.slice(0, 7)), true, 'shorter than the failed prefix');
    });
  });

  it('TestLocalSummaryBacksOffAFailedFold: summary calls per turn go [2,2,2,2,4,4,4,4,6]', () => {
    // A pure simulation of seed 002's transform with a summarizer that always fails after asking twice.
    let raws: unknown[] = twelve('a');
    let memory: BackoffMemory | null = null;
    let calls = 0;
    const perTurn: number[] = [];
    for (let turn = 0; turn < 9; turn++) {
      if (turn > 0) raws = [...raws, msg('ok')];
      const tokens = tokensOf(raws);
      const split = splitOf(raws);
      if (tokens > BUDGET && !shouldBackOff(memory, { raws, split, tokens, budget: BUDGET, keep: KEEP })) {
        calls += 2; // asked, then asked once more, then failed unfolded
        memory = recordFailure({ raws, split, tokens, previous: memory });
      }
      perTurn.push(calls);
    }
    assert.deepEqual(perTurn, [2, 2, 2, 2, 4, 4, 4, 4, 6]);
    assert.equal(memory?.failures, 3);
  });

  it('does not back off without a memory, or after it is cleared', () => {
    const q = { raws: failed, split: 8, tokens: tokensOf(failed), budget: BUDGET, keep: KEEP };
    assert.equal(shouldBackOff(null, q), false);
    assert.equal(shouldBackOff(undefined, q), false);
    assert.equal(shouldBackOff(clearBackoff(), q), false);
    assert.equal(shouldBackOff(memory, q), true);
  });

  it('uses a margin of one item when keep is 0 and one token when the budget is tiny', () => {
    const m = recordFailure({ raws: failed, split: 12, tokens: 100 });
    const q = { raws: [...failed, msg('ok')], split: 12, tokens: 100, budget: 3, keep: 0 };
    assert.equal(shouldBackOff(m, q), true);
    assert.equal(shouldBackOff(m, { ...q, split: 13 }), false);
    assert.equal(shouldBackOff(m, { ...q, tokens: 101 }), false);
  });

  it('keys the memory on the hash of the failed prefix only', () => {
    const m = recordFailure({ raws: failed, split: 8, tokens: 1, at: 1234 });
    assert.equal(m.prefixHash, prefixHash(failed.slice(0, 8)));
    assert.deepEqual({ ...m, prefixHash: '' }, { prefixHash: '', split: 8, tokens: 1, failures: 1, at: 1234 });
    // A change after the prefix does not matter; one inside it does.
    const changedTail = [...failed.slice(0, 8), msg('new'), ...failed.slice(9)];
    assert.equal(shouldBackOff(m, { raws: changedTail, split: 8, tokens: 1, budget: BUDGET, keep: KEEP }), true);
    const changedHead = [msg('new'), ...failed.slice(1)];
    assert.equal(shouldBackOff(m, { raws: changedHead, split: 8, tokens: 1, budget: BUDGET, keep: KEEP }), false);
  });

  it('is plain data: round-trips through JSON and still backs off', () => {
    const restored: unknown = JSON.parse(JSON.stringify(memory));
    assert.deepEqual(restored, memory);
    assert.ok(isBackoffMemory(restored));
    assert.equal(asksAgain(restored, [...failed]), false);
    assert.equal(isBackoffMemory({ ...memory, split: -1 }), false);
    assert.equal(isBackoffMemory({ ...memory, prefixHash: 'nothex' }), false);
    assert.equal(isBackoffMemory({ ...memory, at: undefined }), false);
    assert.equal(isBackoffMemory(null), false);
  });

  it('rebuilds from a failed unfolded fold record, and not from a success or a provider error', () => {
    const record: FoldRecord = {
      number: 3,
      ok: false,
      split: 8,
      firstKept: null,
      output: null,
      droppedCount: 0,
      tokensBefore: tokensOf(failed),
      tokensAfter: null,
      usage: null,
      responseId: null,
      outputTypes: [],
      attempts: 2,
      pinned: [],
      prefixHash: prefixHash(failed.slice(0, 8)),
      error: { kind: 'too_large', message: 'summary no smaller than its input' },
      identifiers: null,
      archiveRange: null,
      startedAt: 10,
      finishedAt: 20,
    };
    const rebuilt = backoffFromRecord(record);
    assert.deepEqual(rebuilt, {
      prefixHash: record.prefixHash,
      split: 8,
      tokens: record.tokensBefore,
      failures: 1,
      at: 20,
    });
    assert.ok(rebuilt);
    assert.equal(asksAgain(rebuilt, [...failed, msg('ok')]), false);
    assert.equal(backoffFromRecord({ ...record, error: { kind: 'provider', message: 'HTTP 500' } }), null);
    assert.equal(backoffFromRecord({ ...record, ok: true, error: null }), null);
  });
});

describe('core/fold/backoff escalation', () => {
  const raws = Array.from({ length: 12 }, (_, i) => ({ type: 'message', role: 'user', content: `m${i}` }));
  const delays = { initialMs: 60_000, maxMs: 600_000 };
  const q = (extra: object) => ({ raws, split: 8, tokens: 100, budget: 400, keep: 4, ...extra });

  it('waits after the second failure in a row, doubling up to the maximum', () => {
    const once = recordFailure({ raws, split: 8, tokens: 100, at: 1000 });
    assert.equal(retryAt(once, delays), 1000);
    const twice = recordFailure({ raws, split: 8, tokens: 100, at: 2000, previous: once });
    assert.equal(twice.failures, 2);
    assert.equal(retryAt(twice, delays), 62_000);
    const thrice = recordFailure({ raws, split: 8, tokens: 100, at: 3000, previous: twice });
    assert.equal(retryAt(thrice, delays), 123_000);
    assert.equal(retryAt({ ...thrice, failures: 40 }, delays), 603_000);
  });

  it('backs off while the wait runs even after growth, and tries again once it has passed', () => {
    const once = recordFailure({ raws, split: 8, tokens: 100, at: 1000 });
    const twice = recordFailure({ raws, split: 8, tokens: 100, at: 2000, previous: once });
    const grown = q({ split: 12, now: 30_000, delays });
    assert.equal(shouldBackOff(once, grown), false, 'one failure: growth alone decides');
    assert.equal(shouldBackOff(twice, grown), true, 'two failures: the wait runs');
    assert.equal(shouldBackOff(twice, { ...grown, now: 62_000 }), false);
    assert.equal(shouldBackOff(twice, { ...grown, now: 62_000, split: 8 }), true, 'and growth is still needed');
  });

  it('counts failures of the same prefix only', () => {
    const once = recordFailure({ raws, split: 8, tokens: 100 });
    const other = [{ type: 'message', role: 'user', content: 'other' }, ...raws.slice(1)];
    assert.equal(recordFailure({ raws: other, split: 8, tokens: 100, previous: once }).failures, 1);
    assert.equal(recordFailure({ raws: [...raws, raws[0]], split: 10, tokens: 120, previous: once }).failures, 2);
  });
});

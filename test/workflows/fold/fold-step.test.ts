import { strict as assert } from 'node:assert';
import { ActivityFailure, ApplicationFailure, CancelledFailure, TimeoutFailure } from '@temporalio/common';
import { FoldApplyError } from '../../../src/core/fold/errors';
import { beginFold, classifyFoldError, completeFold, type SummaryOutcome } from '../../../src/workflows/fold/fold-step';
import { plan, raws, transcript } from './planned-fold-fixture';

const usage = { usage: null, responseId: null, outputTypes: [], attempts: 1 };
const ok: SummaryOutcome = { ok: true, summary: { kind: 'text', text: 'A summary.' }, identifiers: null, ...usage };
const failed: SummaryOutcome = {
  ok: false,
  error: { kind: 'provider', message: 'HTTP 503' },
  nonRetryable: false,
  ...usage,
};

function complete(outcome: SummaryOutcome, extra: Partial<Parameters<typeof completeFold>[0]> = {}) {
  const ticket = beginFold({ plan, raws, tokensBefore: 700, startedAt: 5 });
  return completeFold({
    ticket,
    outcome,
    number: 3,
    transcript,
    backoff: null,
    count: (inserted) => Promise.resolve(inserted.map(() => 11)),
    measure: (a) => a.counts.reduce((x, y) => x + y, 0) + 100,
    now: () => 9,
    ...extra,
  });
}

describe('the shared fold step', () => {
  it('plans a fold in the fixture', () => {
    assert.equal(plan.fold, true, plan.reason);
  });

  it('applies a summary: counts the inserted element before anything is committed and writes the record', async () => {
    const order: string[] = [];
    const done = await complete(ok, {
      count: (inserted) => {
        order.push('count');
        return Promise.resolve(inserted.map(() => 11));
      },
      measure: (a) => {
        order.push('measure');
        return a.counts.reduce((x, y) => x + y, 0) + 100;
      },
    });
    // The second measure is of the prefix the fold left unchanged, for the record's cache effect.
    assert.deepEqual(order, ['count', 'measure', 'measure']);
    assert.ok(done.applied);
    assert.equal(done.applied.inserted.length, 1);
    assert.deepEqual(done.applied.counts, [11]);
    assert.equal(done.record.ok, true);
    assert.equal(done.record.number, 3);
    assert.equal(done.record.tokensAfter, 111);
    // The fixture's fold keeps the system prompt first: that prefix (100 fixed tokens in this measure) stays cached.
    assert.equal(done.applied.folded[0], raws[0]);
    assert.deepEqual(done.record.cache, {
      cachedTokens: 100,
      writtenTokens: 11,
      invalidatedTokens: 600,
      source: 'estimate',
    });
    assert.equal(done.record.startedAt, 5);
    assert.equal(done.record.finishedAt, 9);
    assert.equal(done.backoff, null);
    assert.equal(done.lastError, null);
  });

  it('a failed count is a failed fold: nothing to commit, back-off recorded', async () => {
    const done = await complete(ok, {
      count: () => Promise.reject(new ActivityFailure('count failed', 'countTokens', '1', 'TIMEOUT', 'w', undefined)),
    });
    assert.equal(done.applied, null);
    assert.equal(done.record.ok, false);
    assert.equal(done.record.error?.kind, 'provider');
    assert.equal(done.backoff?.failures, 1);
  });

  it('escalates the back-off when the same prefix fails again, and starts over for another prefix', async () => {
    const first = await complete(failed);
    assert.equal(first.backoff?.failures, 1);
    assert.equal(first.backoff?.at, 9);
    assert.match(first.lastError ?? '', /fold 3 failed \(provider\): HTTP 503/);
    const again = await complete(failed, { backoff: first.backoff });
    assert.equal(again.backoff?.failures, 2);
    const other = await complete(failed, { backoff: { ...first.backoff, prefixHash: 'f'.repeat(64) } });
    assert.equal(other.backoff?.failures, 1);
  });

  it('refuses a folded context the caller does not accept, as a discarded fold', async () => {
    const done = await complete(ok, { accept: (t) => (t > 50 ? 'too big' : null) });
    assert.equal(done.applied, null);
    assert.equal(done.record.error?.kind, 'discarded');
    assert.match(done.record.error?.message ?? '', /too big/);
  });

  it('classifies errors: cancellation rethrown, refusals non-retryable, timeouts named, bugs reported as unsafe', () => {
    assert.throws(() => classifyFoldError(new CancelledFailure('cancelled')), CancelledFailure);
    const refused = new ActivityFailure(
      'activity failed',
      'summarizeFold',
      '1',
      'NON_RETRYABLE_FAILURE',
      'w',
      ApplicationFailure.create({
        message: 'provider rejected the key (401)',
        type: 'Unauthorized',
        nonRetryable: true,
      })
    );
    assert.deepEqual(classifyFoldError(refused), {
      error: { kind: 'provider', message: 'provider rejected the key (401)' },
      nonRetryable: true,
    });
    const timedOut = new ActivityFailure(
      'activity failed',
      'summarizeFold',
      '1',
      'TIMEOUT',
      'w',
      new TimeoutFailure('activity timeout', undefined, 'SCHEDULE_TO_CLOSE')
    );
    const t = classifyFoldError(timedOut);
    assert.match(t.error.message, /schedule-to-close/);
    assert.equal(t.nonRetryable, false);
    assert.equal(classifyFoldError(new FoldApplyError('call split')).error.kind, 'unsafe');
    assert.match(classifyFoldError(new TypeError('x is undefined')).error.message, /internal error while folding/);
  });
});

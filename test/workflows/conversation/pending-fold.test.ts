import { strict as assert } from 'node:assert';
import { normalize } from '../../../src/core/messages/normalize';
import { beginFold } from '../../../src/workflows/fold/fold-step';
import { foldDetails } from '../../../src/visibility/fold-details';
import {
  layoutNow,
  prefixStands,
  progressOf,
  type PendingFold,
} from '../../../src/workflows/conversation/pending-fold';
import { plan, raws } from '../fold/planned-fold-fixture';

const pending = (): PendingFold => ({
  ticket: beginFold({ plan, raws, tokensBefore: 700, startedAt: Date.UTC(2026, 0, 1) }),
  prefixUids: raws.slice(0, plan.split).map((_, i) => `m${i}`),
  attempt: 2,
  lastError: 'fold 1 failed (provider): HTTP 503',
  outcome: null,
  fallback: null,
});

describe('a fold in flight (pure parts)', () => {
  it('applies only while its prefix still leads the context', () => {
    const live = raws.map((_, i) => ({ uid: `m${i}` }));
    assert.equal(prefixStands(pending(), live), true);
    assert.equal(prefixStands(pending(), [...live, { uid: 'm99' }]), true, 'appends after it do not matter');
    assert.equal(prefixStands(pending(), [live[0]!]), false, 'cleared');
    assert.equal(prefixStands(pending(), [{ uid: 's1.0' }, ...live.slice(1)]), false, 'folded by another fold');
  });

  it('keeps every item appended since the plan, hoisting a new instructions item', () => {
    const later = [...raws, { role: 'user', content: 'one more' }, { role: 'system', content: 'New rule.' }];
    const layout = layoutNow(plan, normalize(later, 'chat'));
    assert.deepEqual(layout.tail, [...plan.tail, raws.length]);
    assert.deepEqual(layout.instructions, [0, raws.length + 1]);
    assert.deepEqual(layout.pinned, plan.pinned);
  });

  it('shows its progress in the state view and as current details', () => {
    assert.equal(progressOf(null, false), null);
    const p = pending();
    const progress = progressOf(p, false)!;
    assert.equal(progress.phase, 'summarizing');
    assert.equal(progress.attempt, 2);
    assert.equal(progress.expected.split, plan.split);
    assert.equal(progressOf(p, true)!.phase, 'waiting');
    assert.equal(
      progressOf(
        { ...p, fallback: { number: 2, uids: ['s2.0'], meta: { droppedCount: 1, summarizedIds: [] } } },
        false
      )!.phase,
      'replacing'
    );
    const details = foldDetails(progress, null);
    assert.match(details, /Compacting/);
    assert.match(details, /attempt 2; last error: fold 1 failed/);
    assert.match(
      foldDetails(null, { number: 4, ok: true, fallback: true, finishedAt: 0, error: null }),
      /Idle[\s\S]*#4 applied \(offline fallback\)/
    );
  });
});

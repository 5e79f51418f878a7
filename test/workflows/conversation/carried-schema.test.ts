import { strict as assert } from 'node:assert';
import { defaultSettings } from '../../../src/contract/settings';
import { checkCarried } from '../../../src/workflows/conversation/carried-schema';
import { ConversationState } from '../../../src/workflows/conversation/conversation-state';
import { foldRecord } from '../../support/fold-records';

/** The state a run with two messages, one pinned, and a fold record hands over, as JSON. */
function handedOver(): Record<string, unknown> {
  const state = ConversationState.create('carried-test', defaultSettings);
  const staged = state.stage({
    messages: [
      { role: 'user', content: 'Book a flight.' },
      { role: 'assistant', content: 'Where to?' },
    ],
  });
  state.commitAppend(staged, [5, 4], [], undefined);
  state.markPinned([0]);
  state.recordFold(foldRecord(state.nextFoldNumber()), { backoff: null, lastError: null });
  return JSON.parse(JSON.stringify(state.handOver())) as Record<string, unknown>;
}

const refusal = (changes: Record<string, unknown>): string => {
  try {
    checkCarried({ ...handedOver(), ...changes }, 'carried-test');
  } catch (err) {
    return (err as Error).message;
  }
  return 'accepted';
};

describe('carried state schema (continue-as-new input)', () => {
  it('accepts what a run hands over, unchanged', () => {
    const carried = handedOver();
    assert.equal(checkCarried(carried, 'carried-test'), carried);
    assert.equal(refusal({ ledger: null, lastClientHash: 'h', toolTokens: 3, format: 's0' }), 'accepted');
  });

  it('names the field, the expectation and the value of the first problem', () => {
    const live = handedOver().live as Record<string, unknown>[];
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ conversationId: 'other' }, /^carried\.conversationId "other" is not this conversation \('carried-test'\)$/],
      [{ version: -1 }, /^carried\.version must be a non-negative integer, got -1$/],
      [{ version: 0 }, /^carried\.version must be at least 1 when carried\.live holds messages$/],
      [{ lastClientSeq: -2 }, /^carried\.lastClientSeq must be an integer from -1, got -2$/],
      [{ format: 'xml' }, /^carried\.format must be null or a format name, got "xml"$/],
      [{ live: [{ ...live[0], tokens: undefined }] }, /^carried\.live\[0\]\.tokens must be a non-negative integer/],
      [{ live: [{ ...live[0], uid: '' }] }, /^carried\.live\[0\]\.uid must be a non-empty string/],
      [{ live: [{ ...live[0], seq: null, ref: { bytes: 9 } }] }, /^carried\.live\[0\]\.ref needs an archived message/],
      [{ live: [{ ...live[0], ref: { bytes: 9, more: 1 } }] }, /unknown key 'carried\.live\[0\]\.ref\.more'/],
      [{ writers: [['w', -1]] }, /^carried\.writers\[0\]\[1\] must be a non-negative integer, got -1$/],
      [{ writers: [['w', 1, 'h', 4]] }, /^carried\.writers\[0\] must be \[writer, lastSeq, hash\?\], got 4 entries$/],
      [{ folds: [{ number: 0, ok: true }] }, /^carried\.folds\[0\]\.number must be a positive integer, got 0$/],
      [{ sent: [{ version: 1 }] }, /^carried\.sent\[0\]\.counted must be a non-negative integer/],
      [
        { hotPaths: { scores: [{ path: 'a', score: 'high' }] } },
        /^carried\.hotPaths\.scores\[0\]\.score must be a finite number/,
      ],
      [{ lastError: { at: 1 } }, /^carried\.lastError\.message must be a string, got undefined$/],
      [{ backoff: 3 }, /^carried\.backoff must be null or an object, got 3$/],
      [{ limits: undefined }, /^carried\.limits must be the resolved run limits, got undefined$/],
      [{ turnReads: [1] }, /^carried\.turnReads\[0\] must be a string, got 1$/],
      [{ settings: { ...defaultSettings, budget: 1e12 } }, /^carried\.settings: budget must be an integer from 256/],
      [
        { ledger: { summaryKey: 'x', ledger: { entries: [] } } },
        /^carried\.ledger\.summaryKey must be 64 lower-case hex/,
      ],
    ];
    for (const [changes, message] of cases) assert.match(refusal(changes), message, JSON.stringify(changes));
  });

  it('checks the fold limits together, as a start input does', () => {
    const limits = { ...(handedOver().limits as object), foldBackoffInitialMs: 10, foldBackoffMaxMs: 5 };
    assert.equal(refusal({ limits }), 'carried.limits.foldBackoffInitialMs must not exceed limits.foldBackoffMaxMs');
    assert.match(refusal({ limits: { ...limits, extra: 1 } }), /unknown key 'carried\.limits\.extra'/);
  });
});

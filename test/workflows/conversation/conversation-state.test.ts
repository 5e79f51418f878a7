import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { applyPatch } from '../../../src/contract/patch';
import type { BackoffMemory } from '../../../src/core/fold/backoff';
import { normalize } from '../../../src/core/messages/normalize';
import { ConversationClosed } from '../../../src/contract/closed';
import {
  AppendRejected,
  ConversationState,
  type CarriedState,
} from '../../../src/workflows/conversation/conversation-state';
import type { PendingFold } from '../../../src/workflows/conversation/pending-fold';
import type { SummaryOutcome } from '../../../src/workflows/fold/fold-step';
import { foldRecord } from '../../support/fold-records';
import { defaultSettings } from '../../../src/contract/settings';
import { corpusConversation } from '../../support/corpus';

const fresh = (): ConversationState => ConversationState.create('state-test', defaultSettings);
const counts = (n: number): number[] => Array.from({ length: n }, () => 5);

describe('ConversationState transcript', () => {
  it('after every append equals normalising the live raws (validator and handler staged, as the workflow does)', () => {
    const { messages } = corpusConversation('tau2-bench-gpt41-airline-task18');
    const state = fresh();
    for (let i = 0; i < messages.length; i += 2) {
      const input = { messages: messages.slice(i, i + 2) };
      state.stage(input); // the update validator
      const staged = state.stage(input); // the handler
      state.commitAppend(staged, counts(staged.messages.length), [], undefined);
      const t = state.transcript();
      assert.deepEqual(t, normalize(state.raws(), 'chat'), `after message ${i}`);
      t.items.forEach((item, k) => assert.equal(item.raw, state.carried.live[k]!.raw));
    }
    assert.equal(state.carried.live.length, messages.length);
  });

  it('holds the clipped version of a message, and stays right when another append was staged in between', () => {
    const state = fresh();
    const first = state.stage({ messages: [{ role: 'system', content: 'Be brief.' }] });
    state.commitAppend(first, [4], [], undefined);
    const big = { role: 'user', content: 'x'.repeat(1000) };
    const clipped = { role: 'user', content: 'x… (clipped)' };
    state.commitAppend(state.stage({ messages: [big] }), [300], [{ index: 0, raw: clipped, tokens: 5 }], undefined);
    assert.equal(state.transcript().items[1]!.raw, clipped);
    assert.deepEqual(state.transcript(), normalize(state.raws(), 'chat'));
    // A validator of another update runs while this handler awaits its ingest.
    const mine = state.stage({ messages: [{ role: 'assistant', content: 'mine' }] });
    state.stage({ messages: [{ role: 'user', content: 'theirs' }] });
    state.commitAppend(mine, [3], [], undefined);
    assert.deepEqual(
      state.transcript().items.map((i) => i.raw),
      state.raws()
    );
    assert.deepEqual(state.transcript(), normalize(state.raws(), 'chat'));
  });

  it('rejects a result without its call, naming the message of this append, and changes nothing', () => {
    const state = fresh();
    state.commitAppend(state.stage({ messages: [{ role: 'user', content: 'hi' }] }), [3], [], undefined);
    const before = state.transcript();
    assert.throws(
      () =>
        state.stage({
          messages: [
            { role: 'user', content: 'a' },
            { role: 'tool', tool_call_id: 'q', content: 'r' },
          ],
        }),
      /message 1 of this append: tool result for call id 'q'/
    );
    assert.equal(state.carried.version, 1);
    assert.equal(state.transcript(), before);
  });
});

/** Appends `messages` as the workflow does (stage, then commit with a count of 5 each). */
function append(state: ConversationState, messages: unknown[], clientSeq?: number, writer?: string): void {
  const staged = state.stage({ messages, ...(clientSeq !== undefined ? { clientSeq } : {}) });
  state.commitAppend(staged, counts(staged.messages.length), [], clientSeq, writer);
}

/** A conversation of instructions and two user turns (5 messages, 5 tokens each). */
function twoTurns(): ConversationState {
  const state = fresh();
  append(state, [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: 'first', id: 'u1' },
    { role: 'assistant', content: 'one' },
    { role: 'user', content: 'second', id: 'u2' },
    { role: 'assistant', content: 'two', id: 'a2' },
  ]);
  return state;
}

/** The state as JSON: what continue-as-new carries. */
const json = (state: ConversationState): string => JSON.stringify(state.carried);

/** Asserts `fn` throws `error` and leaves the carried state exactly as it was. */
function refused(state: ConversationState, fn: () => unknown, error: RegExp | (new (...a: never[]) => Error)): void {
  const before = json(state);
  assert.throws(fn, error);
  assert.equal(json(state), before, 'a refused transition changes nothing');
}

const withCalibration = (state: ConversationState): void => {
  assert.equal(state.calibrate(state.countedTokens(), state.countedTokens() * 1.1), true);
  assert.notEqual(state.carried.calibration?.anchor, null);
};

/**
 * Never called: compiled only. `npm run typecheck` fails if any of these writes through the read-only view compiles,
 * so every change of the state has to go through a method of the class.
 */
export function writesThroughTheViewDoNotCompile(state: ConversationState): void {
  // @ts-expect-error a field of the carried state
  state.carried.version = 5;
  // @ts-expect-error a field of a live entry
  state.carried.live[0]!.tokens = 1;
  // @ts-expect-error a list of the carried state
  state.carried.live.push(state.carried.live[0]!);
  // @ts-expect-error the calibration
  state.carried.calibration = null;
}

describe('ConversationState transitions', () => {
  it('carries the JSON fields of the 1.0 baseline (continue-as-new input and recorded histories)', () => {
    assert.deepEqual(Object.keys(fresh().carried), [
      'conversationId',
      'settings',
      'limits',
      'format',
      'live',
      'nextSeq',
      'version',
      'lastClientSeq',
      'writers',
      'recentIds',
      'folds',
      'foldCount',
      'backoff',
      'calibration',
      'fixedTokens',
      'lastError',
      'closed',
      'continuedAsNew',
      'hotPaths',
      'sent',
      'pendingFold',
      'turnReads',
    ]);
  });

  it('append: stores, numbers and counts new messages, skips retries by clientSeq and by id', () => {
    const state = fresh();
    append(state, [{ role: 'user', content: 'hi', id: 'm-1' }], 0);
    assert.deepEqual(
      state.carried.live.map((e) => [e.uid, e.seq, e.tokens]),
      [['m0', 0, 5]]
    );
    assert.equal(state.carried.version, 1);
    assert.equal(state.carried.nextSeq, 1);
    assert.equal(state.carried.lastClientSeq, 0);
    assert.equal(state.carried.format, 'chat');
    assert.equal(state.stage({ messages: [{ role: 'assistant', content: 'x' }], clientSeq: 0 }).messages.length, 0);
    assert.equal(state.stage({ messages: [{ role: 'user', content: 'again', id: 'm-1' }] }).messages.length, 0);
    append(state, [{ role: 'assistant', content: 'ok' }], 1, 'agent-a');
    assert.deepEqual(state.carried.writers, [['agent-a', 1]]);
    assert.equal(state.carried.lastClientSeq, 0, 'a writer has its own sequence');
  });

  it('append refusals: closed, not an object, bad clientSeq, oversized message, broken transcript', () => {
    const state = twoTurns();
    refused(state, () => state.stage(null as never), /must be an object/);
    refused(state, () => state.stage({ messages: 'x' } as never), /messages must be an array/);
    refused(state, () => state.stage({ messages: [], clientSeq: -1 }), /clientSeq must be a non-negative integer/);
    const big = { role: 'user', content: 'x'.repeat(state.carried.settings.maxMessageBytes) };
    refused(state, () => state.stage({ messages: [big] }), /over the \d+-byte limit/);
    refused(
      state,
      () => state.stage({ messages: [{ role: 'tool', tool_call_id: 'zz', content: 'r' }] }),
      AppendRejected
    );
    state.close();
    refused(state, () => state.stage({ messages: [{ role: 'user', content: 'late' }] }), ConversationClosed);
  });

  it('pin marks live messages; a position outside the context is refused', () => {
    const state = twoTurns();
    state.markPinned([1]);
    assert.equal(state.carried.live[1]!.pinned, true);
    refused(state, () => state.markPinned([2, 9]), /no live message at position 9/);
    assert.equal(state.carried.live[2]!.pinned, undefined);
  });

  it('fold applied: numbered, summary entries inserted, kept entries by identity, calibration as measured', () => {
    const state = twoTurns();
    withCalibration(state);
    const raws = state.raws();
    const summary = { role: 'user', content: 'summary of the first turn' };
    const number = state.nextFoldNumber();
    assert.equal(number, 1);
    const kept = state.carried.live[3]!;
    const measured = { ratio: 1.05, samples: 1, anchor: null };
    const uids = state.commitFold({ folded: [raws[0], summary, raws[3], raws[4]], counts: [7] }, number, measured);
    assert.deepEqual(uids, ['s1.0']);
    assert.deepEqual(
      state.carried.live.map((e) => [e.uid, e.tokens, e.seq]),
      [
        ['m0', 5, 0],
        ['s1.0', 7, null],
        ['m3', 5, 3],
        ['m4', 5, 4],
      ]
    );
    assert.equal(state.carried.live[2], kept);
    assert.equal(state.carried.version, 2);
    assert.deepEqual(state.carried.sent, []);
    assert.deepEqual(state.carried.calibration, measured);
    state.recordFold(foldRecord(number), { backoff: null, lastError: null });
    assert.equal(state.carried.folds.length, 1);
    assert.equal(state.carried.lastError, null);
  });

  it('fold failed: the record, the back-off and the error (at the record end); absent back-off is kept', () => {
    const state = twoTurns();
    const backoff: BackoffMemory = { prefixHash: 'ab', split: 3, tokens: 25, failures: 1, at: 5 };
    const failed = foldRecord(state.nextFoldNumber(), { ok: false, finishedAt: 1234 });
    const version = state.carried.version;
    state.recordFold(failed, { backoff, lastError: 'fold 1 failed (provider): down' });
    assert.deepEqual(state.carried.backoff, backoff);
    assert.deepEqual(state.carried.lastError, { at: 1234, message: 'fold 1 failed (provider): down' });
    assert.equal(state.carried.version, version, 'a failed fold leaves the context alone');
    state.recordFold(foldRecord(state.nextFoldNumber()), {}); // a model summary replacing a fallback's
    assert.deepEqual(state.carried.backoff, backoff);
    assert.equal(state.carried.foldCount, 2);
    for (let i = 0; i < 60; i++) state.recordFold(foldRecord(state.nextFoldNumber()));
    assert.equal(state.carried.folds.length, 50, 'bounded: the archive keeps every record');
    assert.equal(state.carried.folds[49]!.number, 62);
  });

  it('adopts the task times a fold record was written with, and the error stamp taken from it', () => {
    const state = twoTurns();
    const failed = foldRecord(state.nextFoldNumber(), { ok: false, startedAt: 1000, finishedAt: 1234 });
    state.recordFold(failed, { lastError: 'fold 1 failed (provider): down' });
    state.recordFold(foldRecord(state.nextFoldNumber(), { startedAt: 2000, finishedAt: 2100 }));
    state.adoptFoldTimes({ number: 1, startedAt: 700, finishedAt: 900 });
    assert.deepEqual(state.carried.folds[0], { ...failed, startedAt: 700, finishedAt: 900 });
    assert.deepEqual(state.carried.lastError, { at: 900, message: 'fold 1 failed (provider): down' });
    state.adoptFoldTimes({ number: 2, startedAt: 1950, finishedAt: 2050 });
    assert.deepEqual([state.carried.folds[1]!.startedAt, state.carried.folds[1]!.finishedAt], [1950, 2050]);
    assert.equal(state.carried.lastError?.at, 900, 'a stamp from another record stays');
    const before = structuredClone(state.carried.folds);
    state.adoptFoldTimes({ number: 9, startedAt: 1, finishedAt: 2 });
    assert.deepEqual(state.carried.folds, before, 'a record not held is left alone');
  });

  it('rewind: removes the last user turn, forgets its ids, drops the anchor', () => {
    const state = twoTurns();
    withCalibration(state);
    const removed = state.rewind();
    assert.deepEqual(
      removed.map((r) => (r as { content: string }).content),
      ['second', 'two']
    );
    assert.equal(state.carried.live.length, 3);
    assert.equal(state.carried.calibration?.anchor, null);
    assert.equal(state.carried.version, 2);
    assert.ok(!state.carried.recentIds.includes('u2'));
    assert.ok(state.carried.recentIds.includes('u1'));
    assert.equal(state.stage({ messages: [{ role: 'user', content: 'second', id: 'u2' }] }).messages.length, 1);
  });

  it('rewind refusals: nothing to rewind, closed', () => {
    const state = fresh();
    append(state, [{ role: 'system', content: 'Be brief.' }]);
    refused(state, () => state.rewind(), /nothing to rewind/);
    const closed = twoTurns();
    closed.close();
    refused(closed, () => closed.rewind(), ConversationClosed);
  });

  it('clear: keeps instructions and pinned messages, forgets the back-off, the removed ids and the anchor', () => {
    const state = twoTurns();
    state.markPinned([3]);
    withCalibration(state);
    state.recordFold(foldRecord(state.nextFoldNumber(), { ok: false }), {
      backoff: { prefixHash: 'ab', split: 3, tokens: 25, failures: 1, at: null },
    });
    assert.equal(state.clear(), 3);
    assert.deepEqual(
      state.carried.live.map((e) => e.uid),
      ['m0', 'm3']
    );
    assert.equal(state.carried.backoff, null);
    assert.equal(state.carried.calibration?.anchor, null);
    assert.deepEqual(state.carried.recentIds, ['u2']);
    const closed = twoTurns();
    closed.close();
    refused(closed, () => closed.clear(), ConversationClosed);
  });

  it('calibrate: a report of a known context moves the estimate; unknown or unusable reports change nothing', () => {
    const state = twoTurns();
    const counted = state.countedTokens();
    assert.equal(state.estimatedTokens(), counted);
    for (const [estimated, reported] of [
      [undefined, 40],
      [counted, 0],
      [counted, -3],
      [counted, Number.NaN],
      [counted, Number.POSITIVE_INFINITY],
    ] as const) {
      const before = json(state);
      assert.equal(state.calibrate(estimated, reported), false);
      assert.equal(json(state), before);
    }
    assert.equal(state.calibrate(counted, counted * 1.5), true);
    assert.equal(state.carried.calibration?.samples, 1);
    assert.ok(state.estimatedTokens() > counted);
  });

  it('configure: new settings; with a recount the counts, fixed tokens and calibration restart', () => {
    const state = twoTurns();
    withCalibration(state);
    state.noteSent({ version: state.carried.version, counted: state.countedTokens() });
    state.configure({ ...state.carried.settings, budget: 50_000 });
    assert.equal(state.carried.settings.budget, 50_000);
    assert.notEqual(state.carried.calibration, null, 'no recount: the calibration stays');
    const next = { ...state.carried.settings, model: 'gpt-4o' };
    state.configure(next, { counts: [1, 2, 3, 4, 5], toolTokens: 10, replyPriming: 3 });
    assert.equal(state.carried.settings, next);
    assert.deepEqual(
      state.carried.live.map((e) => e.tokens),
      [1, 2, 3, 4, 5]
    );
    assert.equal(state.carried.toolTokens, 10);
    assert.equal(state.carried.fixedTokens, 13);
    assert.equal(state.carried.calibration, null);
    assert.deepEqual(state.carried.sent, []);
  });

  it('fixed tokens: tools counted with reply priming; ingest reply priming keeps the tool tokens', () => {
    const state = fresh();
    state.useTools([{ type: 'function', function: { name: 'f', parameters: {} } }]);
    assert.equal(state.carried.settings.tools?.length, 1);
    state.setReplyPriming(3);
    assert.equal(state.carried.toolTokens, undefined, 'absent until tools are counted (older state shape)');
    state.setFixedTokens({ replyPriming: 3, toolTokens: 20 });
    state.setReplyPriming(4);
    assert.equal(state.carried.fixedTokens, 24);
  });

  it('eviction and lightening: a new revision per replaced message, the anchor dropped, positions past the end skipped', () => {
    const state = twoTurns();
    withCalibration(state);
    state.commitEviction([
      { index: 2, raw: { role: 'assistant', content: '[evicted]' }, tokens: 2 },
      { index: 7, raw: { role: 'assistant', content: 'nowhere' }, tokens: 2 },
    ]);
    assert.deepEqual(
      state.carried.live.map((e) => [e.uid, e.rev, e.tokens]),
      [
        ['m0', 0, 5],
        ['m1', 0, 5],
        ['m2', 1, 2],
        ['m3', 0, 5],
        ['m4', 0, 5],
      ]
    );
    assert.equal(state.carried.calibration?.anchor, null);
    assert.equal(state.carried.version, 2);
  });

  it('references: the raw becomes its stub, identity, counts, version and anchor stay; eviction ends it', () => {
    const state = twoTurns();
    withCalibration(state);
    const anchor = state.carried.calibration?.anchor;
    const stub = { role: 'assistant', content: '[the full message is …]' };
    state.commitReferences([{ index: 1, raw: stub, bytes: 900 }]);
    const entry = state.carried.live[1]!;
    assert.deepEqual([entry.uid, entry.rev, entry.tokens, entry.raw, entry.ref], ['m1', 0, 5, stub, { bytes: 900 }]);
    assert.equal(state.carried.version, 1);
    assert.equal(state.carried.calibration?.anchor, anchor);
    // The transcript is read again from the stub.
    assert.equal(state.transcript().items[1]!.raw, stub);
    state.commitEviction([{ index: 1, raw: { role: 'assistant', content: '[evicted]' }, tokens: 2 }]);
    assert.equal(state.carried.live[1]!.ref, undefined);
  });

  it('patch and transcript: the mirror plus what was sent becomes the context, whatever changed (property)', () => {
    // Each step appends, some messages clipped, then maybe evicts or holds by reference before the patch, as the
    // handler does (the byte budget and eviction run between staging and the reply).
    const step = fc.record({
      sent: fc.integer({ min: 0, max: 3 }),
      clip: fc.array(fc.nat(), { maxLength: 1 }),
      evict: fc.array(fc.nat(), { maxLength: 2 }),
      reference: fc.array(fc.nat(), { maxLength: 2 }),
    });
    fc.assert(
      fc.property(fc.array(step, { maxLength: 12 }), (steps) => {
        const state = fresh();
        let mirror: unknown[] = [];
        /** What the caller holds for each live entry: a message held by reference is still the original there. */
        const shown = new Map<string, unknown>();
        const show = () => state.carried.live.map((e) => shown.get(`${e.uid}@${e.rev}`) ?? e.raw);
        steps.forEach(({ sent, clip, evict, reference }, n) => {
          const messages = Array.from({ length: sent }, (_, k) => ({ role: 'user', content: `step ${n}.${k}` }));
          state.stage({ messages }); // the update validator
          const staged = state.stage({ messages });
          const clipped = clip
            .filter(() => sent > 0)
            .map((c) => ({ index: c % sent, raw: { role: 'user', content: `clipped ${n}` }, tokens: 1 }));
          state.commitAppend(staged, counts(sent), clipped, undefined);
          const live = () => state.carried.live.length;
          const at = (k: number) => k % Math.max(1, live());
          if (live() > 0) {
            state.commitEviction(
              evict.map((k) => ({ index: at(k), raw: { role: 'user', content: `ev ${n}.${k}` }, tokens: 1 }))
            );
            // Any message may be held by reference, also one new or rewritten in this very step (clipped,
            // lightened): the caller is still sent the message as it was before its stub, never the stub.
            const refs = reference.map(at);
            for (const i of refs) {
              const e = state.carried.live[i]!;
              if (e.seq !== null && !e.ref) shown.set(`${e.uid}@${e.rev}`, e.raw);
            }
            state.commitReferences(
              refs.map((i) => ({ index: i, raw: { role: 'user', content: `[ref ${n}.${i}]` }, bytes: 9 }))
            );
          }
          const patch = state.patch(staged);
          if (clipped.length === 0 && evict.length === 0 && mirror.length + sent > 0) {
            // An append kept as sent is one copy of all the caller holds: nothing travels back.
            assert.deepEqual(patch.segments, [{ copy: [0, mirror.length + sent] }]);
          }
          mirror = applyPatch([...mirror, ...messages], patch);
          // The transcript kept through references is the reading of the raws held now.
          assert.deepEqual(state.transcript(), normalize(state.raws(), 'chat', { stored: true }));
          assert.deepEqual(mirror, show(), `after step ${n}`);
        });
      }),
      { numRuns: 300 }
    );
  });

  it('pending fold: started, settled only while it is the current one, fallback noted, dropped', () => {
    const state = twoTurns();
    const pending = { outcome: null, fallback: null } as unknown as PendingFold;
    const outcome = { ok: false } as SummaryOutcome;
    state.startPendingFold(pending);
    assert.equal(state.carried.pendingFold, pending);
    state.noteFallback(pending, { number: 1, uids: ['s1.0'], meta: { droppedCount: 0, summarizedIds: [] } });
    assert.deepEqual(pending.fallback?.uids, ['s1.0']);
    assert.equal(state.settlePendingFold(pending, outcome), true);
    assert.equal(pending.outcome, outcome);
    state.dropPendingFold();
    assert.equal(state.carried.pendingFold, null);
    const late = { outcome: null, fallback: null } as unknown as PendingFold;
    assert.equal(state.settlePendingFold(late, outcome), false);
    assert.equal(late.outcome, null);
  });

  it('continue-as-new: the hand-over counts itself and round-trips through JSON; an unfinished summary stays behind', () => {
    const state = twoTurns();
    const ready = { outcome: { ok: false }, fallback: null } as unknown as PendingFold;
    state.startPendingFold(ready);
    const carried: CarriedState = JSON.parse(JSON.stringify(state.handOver())) as CarriedState;
    assert.equal(carried.continuedAsNew, 1);
    const next = new ConversationState(carried);
    assert.equal(json(next), json(state), 'a summary already in crosses over');
    assert.deepEqual(next.transcript(), state.transcript());
    const writing: CarriedState = { ...carried, pendingFold: { outcome: null } as unknown as PendingFold };
    assert.equal(new ConversationState(writing).carried.pendingFold, null);
  });

  it('start format, errors and close', () => {
    const state = fresh();
    state.fixFormat('responses');
    assert.deepEqual([state.carried.format, state.carried.formatFixed], ['responses', true]);
    state.noteError('worker configuration not applied: x', 7);
    assert.deepEqual(state.carried.lastError, { at: 7, message: 'worker configuration not applied: x' });
    assert.equal(state.close(), 0);
    assert.equal(state.carried.closed, true);
  });
});

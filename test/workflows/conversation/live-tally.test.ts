import { strict as assert } from 'node:assert';
import { defaultSettings } from '../../../src/contract/settings';
import { planFold } from '../../../src/core/plan';
import { ConversationState, type CarriedState } from '../../../src/workflows/conversation/conversation-state';
import { jsonBytes, LiveTally } from '../../../src/workflows/conversation/live-tally';
import { isRulesEntry } from '../../../src/workflows/conversation/pinned-messages';

type Entry = ConversationState['carried']['live'][number];

/** The sums a full pass over the live context gives. */
function recount(state: ConversationState): { tokens: number; bytes: number; rules: boolean } {
  const live = state.carried.live;
  return {
    tokens: live.reduce((sum, e) => sum + e.tokens, 0),
    bytes: live.reduce((sum, e) => sum + jsonBytes(e.raw), 0),
    rules: live.some(isRulesEntry),
  };
}

/** Checks the running sums against a recount, and the unchanged prefix against the context at `version`. */
function check(state: ConversationState, what: string, before: { version: number; live: Entry[] }): void {
  assert.deepEqual(
    { tokens: state.liveTokens(), bytes: state.liveBytes(), rules: state.holdsRules() },
    recount(state),
    `after ${what}`
  );
  assert.equal(state.countedTokens(), state.carried.fixedTokens + recount(state).tokens, `counted after ${what}`);
  const from = state.unchangedBelow(before.version);
  const live = state.carried.live;
  for (let i = 0; i < Math.min(from, live.length, before.live.length); i++) {
    assert.equal(live[i], before.live[i], `after ${what}: position ${i} is said unchanged but changed`);
  }
  if (state.carried.version !== before.version) {
    assert.ok(from < Infinity, `after ${what}: a new version must name where it changed`);
  }
}

describe('LiveTally: the running sums of the live context', () => {
  it('equal a recount after every kind of change, and the unchanged prefix is unchanged', () => {
    const state = ConversationState.create('tally-test', defaultSettings);
    let mark = { version: state.carried.version, live: state.carried.live.slice() };
    const step = (what: string, change: () => void): void => {
      change();
      check(state, what, mark);
      mark = { version: state.carried.version, live: state.carried.live.slice() };
    };
    const append = (messages: unknown[], tokens: number): void => {
      const staged = state.stage({ messages });
      state.commitAppend(
        staged,
        messages.map((_, i) => tokens + i),
        [],
        undefined
      );
    };
    step('the first append', () =>
      append(
        [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'hello' },
        ],
        7
      )
    );
    for (let turn = 0; turn < 6; turn++) {
      step(`append ${turn}`, () =>
        append(
          [
            { role: 'assistant', content: `reply ${turn} ${'x'.repeat(turn * 40)}` },
            { role: 'user', content: `question ${turn}` },
          ],
          11 + turn
        )
      );
    }
    step('a clipped append', () => {
      const staged = state.stage({ messages: [{ role: 'assistant', content: 'y'.repeat(500) }] });
      state.commitAppend(staged, [90], [{ index: 0, raw: { role: 'assistant', content: 'y…' }, tokens: 3 }], undefined);
    });
    step('an insert inside the context', () =>
      state.insertInLive([{ at: 3, raw: { role: 'user', content: 'i' } }], [2])
    );
    step('an eviction', () =>
      state.commitEviction([
        { index: 2, raw: { role: 'user', content: 'evicted' }, tokens: 1 },
        { index: 5, raw: { role: 'assistant', content: 'lightened' }, tokens: 4 },
      ])
    );
    step('references', () =>
      state.commitReferences([{ index: 4, raw: { role: 'assistant', content: '[ref]' }, bytes: 99 }])
    );
    step('pins', () => state.markPinned([1]));
    step('rules placed', () => state.placeRules({ element: { role: 'user', content: 'rules: be kind' }, tokens: 6 }));
    step('a recount for another model', () =>
      state.configure(defaultSettings, {
        counts: state.carried.live.map((_, i) => 20 + i),
        toolTokens: 5,
        replyPriming: 3,
      })
    );
    step('a rewind', () => state.rewind());
    step('a fold', () => {
      const live = state.carried.live;
      const folded = [live[0]!.raw, { role: 'user', content: 'summary' }, ...live.slice(-3).map((e) => e.raw)];
      state.commitFold({ folded, counts: [40] }, state.nextFoldNumber(), null);
    });
    for (let turn = 0; turn < 4; turn++) {
      step(`append after the fold ${turn}`, () =>
        append(
          [
            { role: 'assistant', content: `more ${turn}` },
            { role: 'user', content: `again ${turn}` },
          ],
          9
        )
      );
    }
    step('a truncation', () => {
      const transcript = state.transcript();
      const plan = planFold({
        transcript,
        tokens: state.carried.live.map((e) => e.tokens),
        options: { budget: 100, policy: 'rounds', roundsMode: 'truncate', maxRounds: 1, minMessages: 1 },
      });
      assert.equal(plan.kind, 'truncate', plan.reason);
      state.commitTruncate(transcript, plan);
    });
    step('a clear', () => state.clear());
    step('an append after the clear', () => append([{ role: 'user', content: 'fresh start' }], 5));
    // A new run (continue-as-new) tallies the carried context afresh and knows no edit before it.
    const next = new ConversationState(JSON.parse(JSON.stringify(state.handOver())) as CarriedState);
    check(next, 'a continue-as-new', { version: next.carried.version, live: next.carried.live.slice() });
    assert.equal(next.unchangedBelow(next.carried.version - 1), 0);
  });

  it('forgets edits older than it keeps: a reader that far behind compares from the start', () => {
    const tally = new LiveTally([], 0);
    for (let v = 1; v <= 100; v++) tally.edited(v, 10 + v);
    assert.equal(tally.unchangedBelow(100), Infinity);
    assert.equal(tally.unchangedBelow(99), 110);
    assert.equal(tally.unchangedBelow(50), 61);
    assert.equal(tally.unchangedBelow(10), 0);
  });
});

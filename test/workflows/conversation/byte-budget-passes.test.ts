import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { defaultSettings } from '../../../src/contract/settings';
import { archiveWhere, lightenToBudget } from '../../../src/core/fold/lighten';
import { referenceStub } from '../../../src/core/fold/reference-stub';
import { jsonBytes, keepUnderByteBudget } from '../../../src/workflows/conversation/byte-budget';
import { ConversationState } from '../../../src/workflows/conversation/conversation-state';

const MAX = 20_000;
const count = (raws: unknown[]): Promise<number[]> => Promise.resolve(raws.map((r) => Math.ceil(jsonBytes(r) / 4)));

/** The byte budget as whole-context passes (the oracle): lighten the heaviest, then stub the oldest. */
async function wholePasses(state: ConversationState, protectFrom: number): Promise<void> {
  const s = state.carried;
  const where = (seq: number): string => archiveWhere(s.conversationId, seq);
  const weighed = s.live.map((e) => ({ raw: e.raw, seq: e.pinned || e.ref ? null : e.seq, bytes: jsonBytes(e.raw) }));
  if (weighed.reduce((sum, m) => sum + m.bytes, 0) <= MAX) return;
  const replaced = lightenToBudget(weighed, MAX, protectFrom, where, jsonBytes);
  if (replaced.length > 0) {
    const counts = await count(replaced.map((r) => r.raw));
    state.commitEviction(replaced.map((r, k) => ({ index: r.index, raw: r.raw, tokens: counts[k]! })));
    for (const r of replaced) weighed[r.index] = { ...weighed[r.index]!, raw: r.raw, bytes: jsonBytes(r.raw) };
  }
  let total = weighed.reduce((sum, m) => sum + m.bytes, 0);
  if (total <= MAX) return;
  const held: { index: number; raw: unknown; bytes: number }[] = [];
  for (let index = 0; index < weighed.length && total > MAX * 0.75; index++) {
    const m = weighed[index]!;
    if (m.seq === null) continue;
    const raw = referenceStub(m.raw, where(m.seq));
    if (jsonBytes(raw) >= m.bytes) continue;
    held.push({ index, raw, bytes: m.bytes });
    total -= m.bytes - jsonBytes(raw);
  }
  state.commitReferences(held);
}

/** A message of one of the kinds the budget treats differently: short, long text, an image, a short reply. */
const message = fc.oneof(
  fc.nat({ max: 300 }).map((n) => ({ role: 'user', content: `question ${'q'.repeat(n)}` })),
  fc.integer({ min: 4_000, max: 9_000 }).map((n) => ({ role: 'user', content: 'long '.repeat(n / 5) })),
  fc.nat({ max: 9 }).map((d) => ({
    role: 'user',
    content: [
      { type: 'text', text: 'look' },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${String(d).repeat(6_000)}` } },
    ],
  })),
  fc.nat({ max: 40 }).map((n) => ({ role: 'assistant', content: `ok ${'a'.repeat(n)}` }))
);
/** A step: an append of a few messages, or now and then a rewind or a clear. */
const step = fc.oneof(
  { weight: 12, arbitrary: fc.array(message, { minLength: 1, maxLength: 3 }) },
  { weight: 1, arbitrary: fc.constantFrom('rewind' as const, 'clear' as const) }
);

describe('the byte budget read from its settled prefix', () => {
  it('makes the choices the whole-context passes make, step after step (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 5, maxLength: 60 }), async (steps) => {
        const settings = { ...defaultSettings, maxContextBytes: MAX };
        const [fast, whole] = [ConversationState.create('b', settings), ConversationState.create('b', settings)];
        for (const [k, s] of steps.entries()) {
          for (const state of [fast, whole]) {
            if (s === 'rewind' || s === 'clear') {
              try {
                if (s === 'rewind') state.rewind();
                else state.clear();
              } catch {
                // nothing to rewind: the same for both
              }
              continue;
            }
            const staged = state.stage({ messages: s });
            state.commitAppend(staged, await count(staged.messages), [], undefined);
            const protectFrom = state.carried.live.length - staged.messages.length;
            if (state === fast) await keepUnderByteBudget(state, protectFrom, count);
            else await wholePasses(state, protectFrom);
          }
          assert.deepEqual(fast.carried.live, whole.carried.live, `after step ${k}`);
        }
      }),
      { numRuns: 60 }
    );
  });
});

import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { foldOptions } from './generators';
import { abandonedCallResults } from '../../../src/core/messages/abandoned-calls';
import { holdsSignedBlocks } from '../../../src/core/messages/anthropic';
import { normalize, pendingCalls } from '../../../src/core/messages/normalize';
import type { Transcript } from '../../../src/core/messages/types';
import { applyFold, applyTruncate } from '../../../src/core/fold/apply';
import { planFold } from '../../../src/core/plan/plan';
import { KEEP_POLICIES } from '../../../src/core/plan/options';
import type { FoldPlan } from '../../../src/core/plan/types';
import { createTokenCounter } from '../../../src/tokens/counter';
import { anthropicProblems } from '../../support/anthropic-rules';
import { claudeSession } from '../../support/claude-sessions';
import { anthropicSessions } from '../../support/corpus';

const counter = createTokenCounter({ model: 'claude-sonnet-4-5' });

/** A stored conversation: the generated session with its abandoned calls answered "not run", as the workflow stores it. */
function stored(seed: number): { messages: unknown[]; transcript: Transcript; tokens: number[] } {
  const messages: unknown[] = claudeSession(seed, { steps: 10 + (seed % 9) * 15 });
  for (const r of [...abandonedCallResults(messages, 'anthropic')].reverse()) messages.splice(r.at, 0, r.raw);
  return {
    messages,
    transcript: normalize(messages, 'anthropic'),
    tokens: counter.countMessages(messages, 'anthropic'),
  };
}
const sessions = new Map<number, ReturnType<typeof stored>>();
const session = (seed: number) => sessions.get(seed) ?? sessions.set(seed, stored(seed)).get(seed)!;

/** The folded context a plan makes (a stand-in summary), or undefined when it leaves the transcript as it is. */
function contextOf(t: Transcript, p: FoldPlan): unknown[] | undefined {
  if (p.fold) return applyFold({ transcript: t, plan: p, summary: { kind: 'text', text: 'what happened so far' } });
  if (p.kind === 'truncate') return applyTruncate({ transcript: t, plan: p });
  return undefined;
}

/**
 * Pairs split by a context, counted independently of the planner: a tool_use id and its tool_result id present on
 * different sides (one in the context, the other not), calls that no result answers anywhere excluded.
 */
function splitPairs(context: readonly unknown[], originals: readonly unknown[]): number {
  const ids = (msgs: readonly unknown[], type: string, field: string): Set<unknown> =>
    new Set(
      (msgs as { content: unknown }[]).flatMap((m) =>
        Array.isArray(m.content)
          ? (m.content as Record<string, unknown>[]).filter((b) => b.type === type).map((b) => b[field])
          : []
      )
    );
  const answered = ids(originals, 'tool_result', 'tool_use_id');
  const uses = ids(context, 'tool_use', 'id');
  const results = ids(context, 'tool_result', 'tool_use_id');
  let split = 0;
  for (const id of answered) if (uses.has(id) !== results.has(id)) split++;
  return split;
}

const options = foldOptions({
  budget: fc.integer({ min: 1_000, max: 100_000 }),
  triggerRatio: fc.constantFrom(0.5, 0.75, 0.9),
  keepLast: fc.integer({ min: 0, max: 8 }),
  pin: fc.constantFrom(undefined, { tools: ['Read'] }, { roles: ['user' as const] }),
  filter: fc.constantFrom(undefined, { tools: ['Grep'] }),
});

describe('anthropic folds (fast-check): every policy, budgets 1 000–100 000', function () {
  this.timeout(300_000); // about 20 s alone; more on a shared machine
  it('never splits a pair, folds a pending call or edits a thinking turn; every context passes the API rules', () => {
    const seen = { cases: 0, folds: 0, truncates: 0, pendingKept: 0, signedKept: 0, signedFolded: 0, multiResult: 0 };
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 400 }), options, (seed, opts) => {
        const { messages, transcript: t, tokens } = session(seed);
        const p = planFold({ transcript: t, tokens, options: opts });
        seen.cases++;
        const context = contextOf(t, p);
        if (!context) return;
        if (p.fold) seen.folds++;
        else seen.truncates++;
        assert.deepEqual(anthropicProblems(context, messages), [], `seed ${seed} ${JSON.stringify(opts)}`);
        assert.equal(splitPairs(context, messages), 0);
        const kept = new Set(context);
        for (const { itemIndex } of pendingCalls(t)) {
          assert.ok(kept.has(t.items[itemIndex]!.raw), `pending call ${itemIndex} folded`);
          seen.pendingKept++;
        }
        for (const item of t.items) {
          if (!holdsSignedBlocks(item.raw)) continue;
          // Kept as the caller's own object (byte-for-byte), or not at all: never a copy, never edited.
          if (kept.has(item.raw)) seen.signedKept++;
          else seen.signedFolded++;
        }
        for (const item of t.items) if (item.moreAnswers && kept.has(item.raw)) seen.multiResult++;
      }),
      { numRuns: 1000, seed: 24 }
    );
    if (process.env.DC_PRINT_COUNTS) console.log(seen);
    // Cases that do not fold check nothing: the counts show the properties were exercised.
    assert.equal(seen.cases, 1000);
    assert.ok(seen.folds >= 300, `only ${seen.folds} folds`);
    assert.ok(seen.truncates >= 20, `only ${seen.truncates} truncations`);
    assert.ok(seen.pendingKept >= 100, `only ${seen.pendingKept} pending calls checked`);
    assert.ok(seen.signedKept >= 300 && seen.signedFolded >= 300, JSON.stringify(seen));
    assert.ok(seen.multiResult >= 100, `only ${seen.multiResult} kept turns answering parallel calls`);
  });

  it('on the five real Claude Code sessions at 16k and 64k, no policy splits a pair (measured: 0 of 60 plans)', () => {
    let plans = 0;
    let folds = 0;
    let split = 0;
    for (const s of anthropicSessions()) {
      const t = normalize(s.messages);
      const tokens = counter.countMessages(s.messages, 'anthropic');
      for (const budget of [16_000, 64_000]) {
        for (const policy of KEEP_POLICIES) {
          const p = planFold({ transcript: t, tokens, options: { budget, policy } });
          plans++;
          const context = contextOf(t, p);
          if (!context) continue;
          folds++;
          split += splitPairs(context, s.messages);
          const first = context[p.instructions.length] as { role: string };
          assert.equal(first.role, 'user', `${s.name} ${budget} ${policy}: the context starts with a user turn`);
        }
      }
    }
    assert.equal(plans, 60);
    assert.ok(folds >= 40, `only ${folds} of ${plans} plans fold`);
    if (process.env.DC_PRINT_COUNTS) console.log({ plans, folds, split });
    assert.equal(split, 0, `${split} split pairs in ${folds} folds`);
  });
});

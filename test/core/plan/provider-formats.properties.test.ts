import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { foldOptions } from './generators';
import { normalize } from '../../../src/core/messages/normalize';
import { planFold } from '../../../src/core/plan/plan';
import { KEEP_POLICIES, type CompactionOptions, type KeepPolicy } from '../../../src/core/plan/options';
import { applyFold } from '../../../src/core/fold/apply';
import { checkFoldResult } from '../../../src/core/fold/check';
import type { MessageFormat } from '../../../src/core/messages/types';
import { createTokenCounter } from '../../../src/tokens/counter';
import { planProblems } from './invariants';
import { geminiConversation } from '../../support/gemini-generator';
import { geminiRuleViolations } from '../../support/gemini-rules';
import { aiSdkConversation } from '../../support/ai-sdk-generator';
import { aiSdkRuleViolations } from '../../support/ai-sdk-rules';

const RUNS = 500;

const options = foldOptions({
  // Half the cases at small budgets, where most conversations fold; the rest anywhere up to 100 000.
  budget: fc.oneof(fc.integer({ min: 1_000, max: 8_000 }), fc.integer({ min: 1_000, max: 100_000 })),
  triggerRatio: fc.constantFrom(0.1, 0.5, 0.9),
  keepLast: fc.integer({ min: 0, max: 6 }),
  pin: fc.constantFrom(undefined, { tools: ['read_file', 'sendMail'] }, { roles: ['user' as const] }),
});

/** Tallies of what the cases exercised, so a generator that stops folding fails the test. */
interface Tally {
  cases: number;
  folds: number;
  foldsByPolicy: Partial<Record<KeepPolicy, number>>;
  pendingKept: number;
  signedFolded: number;
  truncations: number;
}

/**
 * Plans and folds one generated conversation and checks the plan (engine's own rules, and the independent
 * `planProblems`), then the folded context against the provider's rules.
 */
function checkCase(
  format: MessageFormat,
  messages: unknown[],
  opts: CompactionOptions,
  rules: (input: readonly unknown[], output: readonly unknown[]) => string[],
  tally: Tally
): void {
  const counter = createTokenCounter({ model: format === 'gemini' ? 'gemini-2.5-pro' : 'gpt-4o' });
  const t = normalize(messages, format);
  const tokens = counter.countMessages(messages, format);
  const p = planFold({ transcript: t, tokens, options: opts });
  tally.cases++;
  assert.deepEqual(planProblems(t, p), []);
  if (p.kind === 'truncate') {
    // Rounds dropped without a summary: what is kept must still be a valid request. Pinned items come first then,
    // and a pinned model turn makes no valid start; the compactor and the CLI never truncate (they only fold).
    assert.deepEqual(checkFoldResult({ transcript: t, plan: p }), []);
    if (opts.pin) return;
    tally.truncations++;
    assert.deepEqual(
      rules(
        messages,
        p.keep.map((i) => messages[i])
      ),
      [],
      `truncate, budget ${opts.budget}`
    );
  }
  if (!p.fold) return;
  assert.deepEqual(checkFoldResult({ transcript: t, plan: p }), []);
  const folded = applyFold({ transcript: t, plan: p, summary: { kind: 'text', text: 'stand-in summary' } });
  assert.deepEqual(rules(messages, folded), [], `policy ${p.policy}, budget ${opts.budget}`);
  normalize(folded, format); // the folded context reads back: every result has its call
  tally.folds++;
  tally.foldsByPolicy[p.policy] = (tally.foldsByPolicy[p.policy] ?? 0) + 1;
  if (t.items.some((i) => i.calls.length > 0 && i.index === t.items.length - 1)) tally.pendingKept++;
  const kept = new Set(p.keep);
  if (t.items.some((i) => !kept.has(i.index) && /thoughtSignature|"reasoning"/.test(JSON.stringify(i.raw)))) {
    tally.signedFolded++;
  }
}

function assertExercised(tally: Tally): void {
  assert.equal(tally.cases, RUNS);
  assert.ok(tally.folds >= RUNS / 5, `only ${tally.folds} of ${tally.cases} cases folded`);
  for (const policy of KEEP_POLICIES)
    assert.ok((tally.foldsByPolicy[policy] ?? 0) > 0, `policy ${policy} never folded`);
  assert.ok(tally.pendingKept > 0, 'no fold had a pending call to keep');
  assert.ok(tally.signedFolded > 0, 'no fold folded a signed turn');
  assert.ok(tally.truncations > 0, 'no plan truncated');
  if (process.env.PRINT_TALLY) console.log(JSON.stringify(tally));
}

const newTally = (): Tally => ({
  cases: 0,
  folds: 0,
  foldsByPolicy: {},
  pendingKept: 0,
  signedFolded: 0,
  truncations: 0,
});

describe('provider formats: every policy at budgets 1 000–100 000 keeps the provider rules (fast-check)', function () {
  this.timeout(120_000);

  it('gemini: no split pair, no folded pending call, signed turns byte-exact or folded whole, kept part valid', () => {
    const tally = newTally();
    fc.assert(
      fc.property(geminiConversation, options, (conv, opts) =>
        checkCase('gemini', conv.contents, opts, geminiRuleViolations, tally)
      ),
      { numRuns: RUNS, seed: 24_2 }
    );
    assertExercised(tally);
  });

  it('ai-sdk: no split pair or approval, no folded pending call or approval, signed reasoning byte-exact', () => {
    const tally = newTally();
    fc.assert(
      fc.property(aiSdkConversation, options, (conv, opts) =>
        checkCase('ai-sdk', conv.messages, opts, aiSdkRuleViolations, tally)
      ),
      { numRuns: RUNS, seed: 24_3 }
    );
    assertExercised(tally);
  });
});

describe('the provider-rule validators catch what they claim', () => {
  it('gemini: a split pair, a changed signed turn, a model turn first, a dropped pending call', () => {
    const call = {
      role: 'model',
      parts: [{ functionCall: { id: 'a', name: 'f', args: {} }, thoughtSignature: 'sig' }],
    };
    const answer = { role: 'user', parts: [{ functionResponse: { id: 'a', name: 'f', response: {} } }] };
    const user = { role: 'user', parts: [{ text: 'hi' }] };
    const input = [user, call, answer, user, call];
    assert.deepEqual(geminiRuleViolations(input, input), []);
    assert.match(
      geminiRuleViolations(input, [user, answer, user, call]).join(),
      /1 function response\(s\) after a turn of 0/
    );
    assert.match(geminiRuleViolations(input, [user, call, user, call]).join(), /not answered by the next turn/);
    const edited = {
      role: 'model',
      parts: [{ functionCall: { id: 'a', name: 'f', args: { x: 1 } }, thoughtSignature: 'sig' }],
    };
    assert.match(
      geminiRuleViolations(input, [user, edited, answer, user, call]).join(),
      /thought signature was changed/
    );
    assert.match(geminiRuleViolations(input, [call, answer, user, call]).join(), /first content is a 'model' turn/);
    assert.match(geminiRuleViolations(input, [user, call, answer]).join(), /pending call turn is not kept last/);
  });

  it('ai-sdk: an orphan result, an unanswered call, a changed reasoning message, an assistant first', () => {
    const user = { role: 'user', content: 'hi' };
    const call = {
      role: 'assistant',
      content: [
        { type: 'reasoning', text: 'r' },
        { type: 'tool-call', toolCallId: 'a', toolName: 'f', input: {} },
      ],
    };
    const result = {
      role: 'tool',
      content: [{ type: 'tool-result', toolCallId: 'a', toolName: 'f', output: { type: 'text', value: 'v' } }],
    };
    const ask = {
      role: 'assistant',
      content: [
        { type: 'tool-call', toolCallId: 'b', toolName: 'f', input: {} },
        { type: 'tool-approval-request', approvalId: 'p', toolCallId: 'b' },
      ],
    };
    const input = [user, call, result, user, ask];
    assert.deepEqual(aiSdkRuleViolations(input, input), []);
    assert.match(aiSdkRuleViolations(input, [user, result, user, ask]).join(), /tool result a without its tool call/);
    assert.match(aiSdkRuleViolations(input, [user, call, user, ask]).join(), /user message while a have no result/);
    const edited = { ...call, content: [{ type: 'reasoning', text: 'other' }, call.content[1]] };
    assert.match(
      aiSdkRuleViolations(input, [user, edited, result, user, ask]).join(),
      /reasoning or providerOptions changed/
    );
    assert.match(
      aiSdkRuleViolations(input, [call, result, user, ask]).join(),
      /first message is a 'assistant' message/
    );
    assert.match(aiSdkRuleViolations(input, [user, ask, user]).join(), /user message while b, p have no result/);
  });
});

import { strict as assert } from 'node:assert';
import { normalize } from '../../../src/core/messages/normalize';
import type { LiveEntry } from '../../../src/workflows/conversation/conversation-state';
import { checkRules, pinFlagProblem } from '../../../src/contract/pinned-message-checks';
import Ajv from 'ajv';
import * as z from 'zod/v4-mini';
import { MAX_RULE_CHARS, MAX_RULES, rulesSchema } from '../../../src/contract/schemas/rules';
import {
  pinnedBudgetProblem,
  pinnedIndices,
  pinnedTokens,
  PinnedBudgetError,
  placeRules,
  prepareRules,
  rulesElement,
  RULES_TITLE,
  splitPinFlags,
} from '../../../src/workflows/conversation/pinned-messages';

const entry = (raw: unknown, uid: string, tokens = 10, pinned?: boolean): LiveEntry => ({
  raw,
  tokens,
  uid,
  rev: 0,
  seq: 0,
  ...(pinned ? { pinned } : {}),
});

describe('pins and rules (pure parts)', () => {
  it('checks settings.rules: an array of non-empty strings, bounded in count and size', () => {
    assert.deepEqual(checkRules(['  Never share the code.  ', 'Reply in English.']), [
      'Never share the code.',
      'Reply in English.',
    ]);
    assert.throws(() => checkRules('Never.'), /rules must be an array of strings, got "Never."/);
    assert.throws(() => checkRules([1]), /rules\[0\] must be a string, got 1/);
    assert.throws(() => checkRules(['ok', '  ']), /rules\[1\] must not be empty or blank/);
    assert.throws(
      () => checkRules(['x'.repeat(MAX_RULE_CHARS + 1)]),
      /rules\[0\] must be at most 2000 characters once trimmed, got 2001 characters/
    );
    assert.throws(
      () => checkRules(Array.from({ length: MAX_RULES + 1 }, () => 'r')),
      /rules must hold at most 64 rules, got 65 entries/
    );
    assert.throws(
      () => checkRules(Array.from({ length: 10 }, () => 'y'.repeat(1900))),
      /rules must be at most 16384 characters together once trimmed \(these are 19000\)/
    );
  });

  it('bounds a rule by its trimmed length in the check and in the protocol JSON Schema alike', () => {
    const json = z.toJSONSchema(rulesSchema, { target: 'draft-7', io: 'input', unrepresentable: 'any' });
    const fitsSchema = new Ajv({ strict: false }).compile(json);
    const longest = 'x'.repeat(MAX_RULE_CHARS);
    const padded = `  \n${longest}\t `;
    assert.deepEqual(checkRules([padded]), [longest], 'returned trimmed');
    assert.equal(fitsSchema([padded]), true, 'the schema measures it trimmed too');
    const over = ` ${longest}y `;
    assert.throws(() => checkRules([over]), /rules\[0\] must be at most 2000 characters once trimmed/);
    assert.equal(fitsSchema([over]), false);
    assert.equal(fitsSchema([`${longest}y`]), false);
  });

  it('accepts pin true/false on user, system and developer messages only', () => {
    assert.equal(pinFlagProblem({ role: 'user', content: 'x', pin: true }), undefined);
    assert.equal(pinFlagProblem({ role: 'system', content: 'x', pin: false }), undefined);
    assert.equal(pinFlagProblem({ type: 'user', text: 'x', pin: true }), undefined);
    assert.match(pinFlagProblem({ role: 'user', content: 'x', pin: 'yes' })!, /pin must be true or false, got "yes"/);
    assert.match(pinFlagProblem({ role: 'tool', tool_call_id: 'c', content: 'x', pin: true })!, /not on "tool"/);
    assert.match(pinFlagProblem({ role: 'assistant', content: 'x', pin: true })!, /user, system or developer/);
  });

  it('strips every pin field and reports the pinned positions, leaving the input untouched', () => {
    const messages = [
      { role: 'user', content: 'a', pin: true },
      { role: 'user', content: 'b' },
      { role: 'user', content: 'c', pin: false },
    ];
    const { input, pinned, flagged } = splitPinFlags({ messages, clientSeq: 3 });
    assert.deepEqual([...pinned], [0]);
    assert.deepEqual([...flagged], [0, 2]);
    assert.deepEqual(input.messages, [
      { role: 'user', content: 'a' },
      { role: 'user', content: 'b' },
      { role: 'user', content: 'c' },
    ]);
    assert.equal(input.clientSeq, 3);
    assert.equal(messages[0]!.pin, true, 'the caller’s objects are not changed');
  });

  it('builds the rules element as an instructions item in every format', () => {
    for (const format of ['chat', 'responses', 'typed'] as const) {
      const item = normalize([rulesElement(format, ['Never share FD-5205.'])], format).items[0]!;
      assert.equal(item.role, 'instructions', format);
      assert.equal(item.text, `${RULES_TITLE}\n- Never share FD-5205.`, format);
    }
  });

  it('places the rules element after the leading instructions, replaces it, and removes it', async () => {
    const live = [
      entry({ role: 'system', content: 'sys' }, 'm0'),
      entry({ role: 'user', content: 'hi' }, 'm1'),
      entry({ role: 'user', content: 'rule' }, 'm2', 7, true),
    ];
    const isInstructions = (i: number) => (live[i]!.raw as { role: string }).role === 'system';
    let counted = 0;
    const prepare = (rules: string[], budget = 1000, addedPinned = 0) =>
      prepareRules({
        live,
        format: 'chat',
        rules,
        budget,
        addedPinned,
        count: () => Promise.resolve(++counted + 11),
      });
    placeRules(live, (await prepare(['A.']))!, isInstructions, 4);
    assert.deepEqual(
      live.map((e) => e.uid),
      ['m0', 'rules.4', 'm1', 'm2']
    );
    assert.equal(await prepare(['A.']), null, 'already in place: nothing to change, nothing counted');
    assert.equal(counted, 1);
    assert.equal(pinnedTokens(live), 12 + 7);
    assert.deepEqual(pinnedIndices(live), [3]);
    await assert.rejects(prepare(['A.'], 1000, 300), PinnedBudgetError, 'new pins past the quarter');
    await assert.rejects(prepare(['A.'], 72), /would take 19 tokens, over the 18/, 'a lower budget');
    placeRules(live, (await prepare(['B.']))!, isInstructions, 5);
    assert.deepEqual(
      live.map((e) => e.uid),
      ['m0', 'rules.5', 'm1', 'm2']
    );
    assert.equal(live[1]!.tokens, 13);
    placeRules(live, (await prepare([]))!, isInstructions, 6);
    assert.deepEqual(
      live.map((e) => e.uid),
      ['m0', 'm1', 'm2']
    );
    assert.equal(await prepare([]), null);
  });

  it('refuses pinned content over a quarter of the budget, naming both numbers', () => {
    assert.equal(pinnedBudgetProblem(250, 1000), undefined);
    assert.match(pinnedBudgetProblem(251, 1000)!, /would take 251 tokens, over the 250 they may take/);
  });
});

import { strict as assert } from 'node:assert';
import { runFold } from '../../src/cli/fold';
import { createTokenCounter } from '../../src/tokens';
import { capture, fileWriter } from '../support/cli';

const file = fileWriter('dc-over-budget-');
const counter = createTokenCounter({ model: 'gpt-4o' });
const tokens = (messages: unknown[]): number =>
  counter.countMessages(messages, 'chat').reduce((a, b) => a + b, 0) + counter.replyPriming;

/** Instructions of `instructionWords` words, then 30 exchanges. */
function session(instructionWords: number): unknown[] {
  const messages: unknown[] = [
    { role: 'system', content: `Follow the house style. ${'word '.repeat(instructionWords)}` },
  ];
  for (let i = 0; i < 30; i++) {
    messages.push({ role: 'user', content: `Question ${i}: ${'what about the delivery window? '.repeat(6)}` });
    messages.push({ role: 'assistant', content: `Answer ${i}: ${'the parcel leaves on Tuesday. '.repeat(6)}` });
  }
  return messages;
}

type Out = { messages: unknown[]; fold: { ok: boolean; overBudget?: { budget: number; by: number } } | null };

describe('fold says so when what it must keep does not fit the budget', () => {
  it('a folded context within the budget has no overBudget; one whose instructions exceed it says by how much', async () => {
    const fits = capture();
    await runFold(['--model', 'gpt-4o', '--budget', '1500', file('fits.json', JSON.stringify(session(20)))], fits);
    const a = JSON.parse(fits.out[0]!) as Out;
    assert.ok(a.fold?.ok);
    assert.ok(tokens(a.messages) <= 1500);
    assert.equal(a.fold.overBudget, undefined);

    const over = capture();
    await runFold(['--model', 'gpt-4o', '--budget', '1500', file('over.json', JSON.stringify(session(1800)))], over);
    const b = JSON.parse(over.out[0]!) as Out;
    assert.ok(b.fold?.ok, 'it still folds what it can');
    assert.ok(tokens(b.messages) > 1500, 'the instructions alone are over the budget');
    assert.deepEqual(b.fold.overBudget, { budget: 1500, by: tokens(b.messages) - 1500 });
  });

  it('a context it declines to fold while over the budget says so too', async () => {
    const three = [
      { role: 'system', content: `Follow the house style. ${'word '.repeat(600)}` },
      { role: 'user', content: 'Plan the release.' },
      { role: 'assistant', content: 'On it.' },
    ];
    const out = capture();
    await runFold(['--model', 'gpt-4o', '--budget', '300', file('three.json', JSON.stringify(three))], out);
    const c = JSON.parse(out.out[0]!) as Out & { reason: string; overBudget?: { budget: number; by: number } };
    assert.equal(c.fold, null);
    assert.match(c.reason, /./);
    assert.deepEqual(c.overBudget, { budget: 300, by: tokens(three) - 300 });

    const under = capture();
    await runFold(['--model', 'gpt-4o', '--budget', '3000', file('under.json', JSON.stringify(three))], under);
    assert.equal((JSON.parse(under.out[0]!) as { overBudget?: unknown }).overBudget, undefined);
  });
});

import { strict as assert } from 'node:assert';
import { runFold } from '../../src/cli/fold';
import { runPlan } from '../../src/cli/plan';
import { capture, fileWriter } from '../support/cli';

const file = fileWriter('dc-abandoned-');

/** A call nobody answered early on, then 30 ordinary exchanges: the workflow answers the call "not run" and folds. */
function abandonedEarly(): unknown[] {
  const messages: unknown[] = [
    { role: 'system', content: 'You are a support agent.' },
    { role: 'user', content: 'Look up order 4711, please.' },
    {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'call_lost', type: 'function', function: { name: 'lookup', arguments: '{"order":4711}' } }],
    },
  ];
  for (let i = 0; i < 30; i++) {
    messages.push({
      role: 'user',
      content: `Question ${i}: ${'what about the delivery window and the invoice? '.repeat(6)}`,
    });
    messages.push({
      role: 'assistant',
      content: `Answer ${i}: ${'the parcel leaves the depot on Tuesday morning. '.repeat(6)}`,
    });
  }
  return messages;
}

describe('offline plan and fold decide about an abandoned call as the workflow does', () => {
  const path = file('abandoned.json', JSON.stringify(abandonedEarly()));

  it('plan folds past a call abandoned early (it declined before), indices still into FILE', async () => {
    const io = capture();
    assert.equal(await runPlan(['--model', 'gpt-4o', '--budget', '4000', path], io), 0);
    const p = JSON.parse(io.out[0]!) as {
      fold: boolean;
      reason: string;
      split: number;
      summarize: number[];
      keep: number[];
    };
    assert.equal(p.fold, true, p.reason);
    assert.ok(p.summarize.includes(2), 'the abandoned call is folded');
    const n = abandonedEarly().length;
    for (const i of [...p.summarize, ...p.keep]) assert.ok(Number.isInteger(i) && i >= 0 && i < n, `index ${i}`);
    assert.equal(new Set([...p.summarize, ...p.keep]).size, n, 'every message of FILE is summarised or kept');
    assert.ok(p.split > 2 && p.split <= n);
  });

  it('fold folds it, the call with its stored "not run" result', async () => {
    const io = capture();
    assert.equal(await runFold(['--model', 'gpt-4o', '--budget', '4000', path], io), 0);
    const out = JSON.parse(io.out[0]!) as {
      messages: { role: string; tool_calls?: unknown }[];
      fold: { ok: boolean } | null;
    };
    assert.ok(out.fold, 'a fold happened');
    assert.equal(out.fold.ok, true);
    assert.ok(!out.messages.some((m) => m.tool_calls !== undefined), 'the abandoned call left the live context');
  });
});

import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { runPlan } from '../../src/cli/plan';
import { CliUsageError } from '../../src/cli/io';
import { bin, capture, fileWriter, run } from '../support/cli';
import { corpusConversation, corpusDir } from '../support/corpus';
import { createTokenCounter } from '../../src/tokens';

const file = fileWriter('dc-plan-');
const tau = join(corpusDir, 'conversations', 'tau-bench-gpt4o-airline-task2.json');

describe('cli plan', () => {
  it('prints one JSON line with the decision; indices cover the input', async () => {
    const io = capture();
    assert.equal(await runPlan(['--model', 'gpt-4o', '--budget', '8000', tau], io), 0);
    assert.equal(io.out.length, 1);
    const p = JSON.parse(io.out[0]!) as { fold: boolean; tokens: number; summarize: number[]; keep: number[] };
    assert.deepEqual(Object.keys(p), ['fold', 'reason', 'tokens', 'split', 'summarize', 'keep']);
    const messages = corpusConversation('tau-bench-gpt4o-airline-task2').messages;
    const counter = createTokenCounter({ model: 'gpt-4o' });
    const total = counter.countMessages(messages, 'chat').reduce((a, b) => a + b, 0) + counter.replyPriming;
    assert.equal(p.tokens, total);
    assert.equal(p.fold, true);
    assert.equal(p.keep[0], 0, 'the system message is kept first');
    const covered = new Set<number>([...p.summarize, ...p.keep]);
    assert.equal(covered.size, messages.length, 'every item is summarised or kept');
    assert.equal(new Set(p.keep).size, p.keep.length, 'keep names each item once');
    // An item both summarised and kept is a pinned turn opener: a user message kept verbatim after the summary.
    const both = p.summarize.filter((i) => p.keep.includes(i));
    for (const i of both) assert.equal(messages[i]!.role, 'user');
  });

  it('declines under the trigger and honours --policy', async () => {
    const io = capture();
    await runPlan(['--model', 'gpt-4o', '--budget', '32000', tau], io);
    const p = JSON.parse(io.out[0]!);
    assert.equal(p.fold, false);
    assert.match(p.reason, /under the trigger of 28800/);
    const io2 = capture();
    await runPlan(['--model', 'gpt-4o', '--budget', '8000', '--policy', 'items', tau], io2);
    const q = JSON.parse(io2.out[0]!);
    assert.equal(q.fold, true);
    assert.ok(
      q.keep.length <= 5 && q.keep.length >= 2,
      `items keeps the system message and the last few: ${q.keep.length}`
    );
  });

  describe('bad input is a CliUsageError (exit 2)', () => {
    const cases: [string, string[], RegExp][] = [
      ['missing model', ['--budget', '10', tau], /--model/],
      ['missing budget', ['--model', 'gpt-4o', tau], /--budget/],
      ['non-numeric budget', ['--model', 'gpt-4o', '--budget', 'lots', tau], /positive integer/],
      ['zero budget', ['--model', 'gpt-4o', '--budget', '0', tau], /positive integer/],
      ['unknown policy', ['--model', 'gpt-4o', '--budget', '10', '--policy', 'magic', tau], /--policy must be one of/],
      ['missing file', ['--model', 'gpt-4o', '--budget', '10'], /missing FILE/],
      ['not JSON', ['--model', 'gpt-4o', '--budget', '10', file('bad.json', '{nope')], /not valid JSON/],
      ['not an array', ['--model', 'gpt-4o', '--budget', '10', file('obj.json', '{}')], /JSON array/],
      [
        'malformed message',
        ['--model', 'gpt-4o', '--budget', '10', file('norole.json', '[{"content":"x"}]')],
        /message 0: missing field 'role'/,
      ],
      [
        'unknown call id',
        [
          '--model',
          'gpt-4o',
          '--budget',
          '10',
          file('orphan.json', '[{"role":"tool","tool_call_id":"z","content":""}]'),
        ],
        /message 0: .*no earlier call/,
      ],
    ];
    for (const [name, args, message] of cases) {
      it(name, async () => {
        await assert.rejects(
          Promise.resolve().then(() => runPlan(args, capture())),
          (e: unknown) => e instanceof CliUsageError && message.test(e.message)
        );
      });
    }
  });

  describe('through bin/durable-compaction', () => {
    it('prints the decision and exits 0', async () => {
      const { stdout } = await run(bin, ['plan', '--model', 'gpt-4o', '--budget', '8000', tau]);
      const lines = stdout.trim().split('\n');
      assert.equal(lines.length, 1);
      const p = JSON.parse(lines[0]!);
      assert.equal(p.fold, true);
      assert.ok(Array.isArray(p.summarize) && Array.isArray(p.keep));
    });

    it('exits 2 with a one-line message on bad input', async () => {
      await assert.rejects(
        run(bin, ['plan', '--model', 'gpt-4o', '--budget', 'x', tau]),
        (e: { code: number; stderr: string }) => {
          assert.equal(e.code, 2);
          assert.equal(e.stderr.trim().split('\n').length, 1);
          assert.match(e.stderr, /durable-compaction plan: --budget must be a positive integer/);
          return true;
        }
      );
    });
  });
});

import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { runCount } from '../../src/cli/count';
import { CliUsageError } from '../../src/cli/io';
import { createTokenCounter } from '../../src/tokens';
import { bin, capture, fileWriter, run } from '../support/cli';
import { corpusConversation, corpusDir } from '../support/corpus';

const file = fileWriter('count-cli-');

describe('cli count', () => {
  const name = 'tau-bench-gpt4o-airline-task2';
  const path = join(corpusDir, 'conversations', `${name}.json`);

  it('prints total (sum + reply priming) and per-message counts', async () => {
    const io = capture();
    assert.equal(await runCount(['--model', 'gpt-4o', path], io), 0);
    const printed = JSON.parse(io.out[0]!) as { total: number; messages: number[] };
    const counter = createTokenCounter({ model: 'gpt-4o' });
    const expected = counter.countMessages(corpusConversation(name).messages, 'chat');
    assert.deepEqual(printed.messages, expected);
    assert.equal(printed.total, expected.reduce((a, b) => a + b, 0) + 3);
  });

  it('detects the format (a typed-message transcript is priced as typed messages), and reads --format s0 as typed', async () => {
    const io = capture();
    const s0 = [
      { type: 'user', text: 'hi' },
      { type: 'activity', text: 'ran', payload: '{"x":1}' },
    ];
    await runCount(['--model', 'gpt-4o', file('s0.json', JSON.stringify(s0))], io);
    const counter = createTokenCounter({ model: 'gpt-4o' });
    const expected = counter.countMessages(s0, 'typed');
    assert.deepEqual(JSON.parse(io.out[0]!).messages, expected);
    assert.notDeepEqual(expected, counter.countMessages(s0, 'responses'), 'the formats price these differently');
    const former = capture();
    await runCount(['--model', 'gpt-4o', '--format', 's0', file('s0.json', JSON.stringify(s0))], former);
    assert.deepEqual(JSON.parse(former.out[0]!).messages, expected);
  });

  it('throws CliUsageError on a missing model, a bad format, or a malformed transcript', async () => {
    await assert.rejects(runCount([path], capture()), CliUsageError);
    await assert.rejects(
      runCount(['--model', 'gpt-4o', '--format', 'xml', path], capture()),
      /--format must be one of chat, responses, typed, anthropic, gemini, ai-sdk, got 'xml'/
    );
    await assert.rejects(
      runCount(['--model', 'gpt-4o', file('bad.json', '[{"role":"user"}, 3]')], capture()),
      CliUsageError
    );
    await assert.rejects(runCount(['--model', 'gpt-4o', file('obj.json', '{}')], capture()), CliUsageError);
  });

  describe('through bin/durable-compaction', function () {
    this.timeout(60_000);

    it('prints the JSON line and exits 0', async () => {
      const { stdout } = await run(bin, ['count', '--model', 'gpt-4o', path]);
      const printed = JSON.parse(stdout) as { total: number; messages: number[] };
      assert.equal(printed.messages.length, corpusConversation(name).messages.length);
      assert.equal(printed.total, printed.messages.reduce((a, b) => a + b, 0) + 3);
    });

    it('exits 2 with a one-line message on bad input', async () => {
      await assert.rejects(run(bin, ['count', '--model', 'gpt-4o', file('notjson.json', 'nope')]), (err: unknown) => {
        const e = err as { code: number; stderr: string };
        return e.code === 2 && e.stderr.trim().split('\n').length === 1 && /not valid JSON/.test(e.stderr);
      });
    });
  });
});

// Issue 24, item 4: the CLI reads each format from --format or from unambiguous evidence, and counts --tools.
import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { runCount } from '../../src/cli/count';
import { runFold } from '../../src/cli/fold';
import { CliUsageError } from '../../src/cli/io';
import { runPlan } from '../../src/cli/plan';
import { createTokenCounter } from '../../src/tokens';
import { anthropicProblems } from '../support/anthropic-rules';
import { capture, fileWriter } from '../support/cli';
import { anthropicSessions, corpusDir } from '../support/corpus';

const file = fileWriter('dc-formats-');
const session = anthropicSessions()[0]!;
const claude = join(corpusDir, 'conversations-anthropic', `${session.name}.json`);
const tools = file(
  'tools.json',
  JSON.stringify([
    {
      name: 'Bash',
      description: 'Runs a shell command',
      input_schema: { type: 'object', properties: { command: { type: 'string' } } },
    },
  ])
);
const chatTranscript = file(
  'chat.json',
  JSON.stringify([
    { role: 'user', content: 'hi' },
    {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{}' } }],
    },
    { role: 'tool', tool_call_id: 'c', content: 'ok' },
  ])
);
const mixed = file(
  'mixed.json',
  JSON.stringify([...session.messages.slice(0, 3), { role: 'tool', tool_call_id: 'c', content: 'x' }])
);

const json = <T>(io: { out: string[] }): T => JSON.parse(io.out[0]!) as T;
const usage = (pattern: RegExp) => (e: unknown) => e instanceof CliUsageError && pattern.test(e.message);

describe('cli formats (--format, --tools)', () => {
  it('count: detects a Claude transcript as anthropic, as --format anthropic says; --tools adds the definitions', async () => {
    const counter = createTokenCounter({ model: 'claude-sonnet-4-5' });
    const detected = capture();
    await runCount(['--model', 'claude-sonnet-4-5', claude], detected);
    const given = capture();
    await runCount(['--model', 'claude-sonnet-4-5', '--format', 'anthropic', claude], given);
    assert.deepEqual(json(detected), json(given));
    const expected = counter.countMessages(session.messages, 'anthropic');
    assert.deepEqual(json<{ messages: number[] }>(given).messages, expected);
    const withTools = capture();
    await runCount(['--model', 'claude-sonnet-4-5', '--format', 'anthropic', '--tools', tools, claude], withTools);
    const t = json<{ total: number; tools: number }>(withTools);
    assert.ok(t.tools > 10);
    assert.equal(t.total, json<{ total: number }>(given).total + t.tools);
  });

  it('plan and fold: anthropic with --tools; the folded context passes the API rules', async () => {
    const plain = capture();
    await runPlan(['--model', 'claude-sonnet-4-5', '--budget', '16000', claude], plain);
    const io = capture();
    await runPlan(
      ['--model', 'claude-sonnet-4-5', '--budget', '16000', '--format', 'anthropic', '--tools', tools, claude],
      io
    );
    const p = json<{ fold: boolean; tokens: number; keep: number[] }>(io);
    assert.equal(p.fold, true);
    assert.ok(p.tokens > json<{ tokens: number }>(plain).tokens, 'the tool definitions are counted');
    const folded = capture();
    await runFold(
      ['--model', 'claude-sonnet-4-5', '--budget', '16000', '--format', 'anthropic', '--tools', tools, claude],
      folded
    );
    const out = json<{ messages: unknown[]; fold: { ok: boolean } }>(folded);
    assert.equal(out.fold.ok, true);
    assert.deepEqual(anthropicProblems(out.messages, session.messages), []);
  });

  it('refuses a file mixing formats, or of another format than --format, naming the message and shape', async () => {
    for (const run of [runPlan, runFold]) {
      await assert.rejects(
        run(['--model', 'claude-sonnet-4-5', '--budget', '16000', mixed], capture()),
        usage(
          /message 3: a chat 'tool' message is 'chat' input, but message 1 is a 'assistant' message with an Anthropic/
        )
      );
    }
    await assert.rejects(
      runCount(['--model', 'gpt-4o', '--format', 'anthropic', chatTranscript], capture()),
      usage(/message 1: a chat message with 'tool_calls' is 'chat' input, but the transcript's format is 'anthropic'/)
    );
    await assert.rejects(
      runPlan(['--model', 'gpt-4o', '--budget', '100', '--format', 'gemini-ish', chatTranscript], capture()),
      usage(/--format must be one of chat, responses, typed, anthropic, gemini, ai-sdk, got 'gemini-ish'/)
    );
    await assert.rejects(
      runCount(
        ['--model', 'gpt-4o', '--tools', chatTranscript.replace('chat.json', 'nope.json'), chatTranscript],
        capture()
      ),
      (e: unknown) => e instanceof CliUsageError
    );
  });
});

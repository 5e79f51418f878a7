import { strict as assert } from 'node:assert';
import { ApplicationFailure } from '@temporalio/common';
import { MockActivityEnvironment } from '@temporalio/testing';
import {
  createCountTokensActivity,
  INVALID_COUNT_INPUT,
  type CountTokensInput,
  type CountTokensResult,
} from '../../src/activities/count-tokens';
import { createTokenCounter, type TokenCounter } from '../../src/tokens';

const messages = [
  { role: 'system', content: 'You are terse.' },
  { role: 'user', content: 'Count me.' },
];

describe('countTokens activity', () => {
  const env = new MockActivityEnvironment();

  it('returns per-message counts, tool tokens, priming, encoding and exactness', async () => {
    const countTokens = createCountTokensActivity();
    const tools = [
      {
        type: 'function',
        function: { name: 'noop', description: 'Does nothing', parameters: { type: 'object', properties: {} } },
      },
    ];
    const input: CountTokensInput = { model: 'gpt-4o', format: 'chat', messages, tools };
    const result = await env.run(countTokens, input);
    const reference = createTokenCounter({ model: 'gpt-4o' });
    assert.deepEqual(result, {
      counts: reference.countMessages(messages, 'chat'),
      toolTokens: reference.countTools(tools),
      replyPriming: 3,
      encoding: 'o200k_base',
      exact: true,
    });
    assert.ok(result.toolTokens > 0);
  });

  it('keeps one counter per model', async () => {
    const created: string[] = [];
    const countTokens = createCountTokensActivity({
      counterFor: (model): TokenCounter => {
        created.push(model);
        return createTokenCounter({ model });
      },
    });
    const chat = (model: string): CountTokensInput => ({ model, format: 'chat', messages });
    await env.run(countTokens, chat('gpt-4o'));
    const inexact: CountTokensResult = await env.run(countTokens, chat('claude-opus-4'));
    await env.run(countTokens, chat('gpt-4o'));
    await env.run(countTokens, chat('claude-opus-4'));
    assert.equal(inexact.exact, false);
    assert.deepEqual(created, ['gpt-4o', 'claude-opus-4']);
  });

  const bad: [string, unknown, RegExp][] = [
    ['no model', { format: 'chat', messages }, /'model'/],
    ['unknown format', { model: 'gpt-4o', format: 'xml', messages }, /'format' must be one of/],
    ['messages not an array', { model: 'gpt-4o', format: 'chat', messages: {} }, /'messages' must be an array/],
    ['tools not an array', { model: 'gpt-4o', format: 'chat', messages, tools: 'x' }, /'tools'/],
    ['a malformed message', { model: 'gpt-4o', format: 'chat', messages: [{ content: 'x' }] }, /messages\[0\]: .*role/],
    ['a malformed tool', { model: 'gpt-4o', format: 'chat', messages, tools: [7] }, /tools\[0\]/],
  ];
  for (const [name, input, message] of bad) {
    it(`rejects ${name} with a non-retryable failure naming it`, async () => {
      const countTokens = createCountTokensActivity();
      await assert.rejects(
        env.run(countTokens, input as CountTokensInput),
        (err: unknown) =>
          err instanceof ApplicationFailure &&
          err.nonRetryable &&
          err.type === INVALID_COUNT_INPUT &&
          message.test(err.message)
      );
    });
  }
});

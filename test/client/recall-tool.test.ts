import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type Anthropic from '@anthropic-ai/sdk';
import type { Tool as GeminiTool } from '@google/genai';
import type { ToolSet } from 'ai';
import OpenAI from 'openai';
import type { RecallResult } from '../../src/archive/recall';
import { answerRecallCalls, recallCalls } from '../../src/client/recall-answer';
import { recallTool, type RecallToolFormat } from '../../src/client/recall-tool';
import { normalize, pendingCalls } from '../../src/core/messages/normalize';
import { RecallQueryError } from '../../src/core/recall/query';
import { listenOnLoopback } from '../support/loopback-server';

// Each shape is the provider SDK's own tool type: these lines do not compile otherwise.
const shapes = {
  chat: recallTool('chat') satisfies OpenAI.Chat.Completions.ChatCompletionTool,
  responses: recallTool('responses') satisfies OpenAI.Responses.FunctionTool,
  anthropic: recallTool('anthropic') satisfies Anthropic.Messages.Tool,
  gemini: recallTool('gemini') satisfies GeminiTool,
  'ai-sdk': recallTool('ai-sdk') satisfies ToolSet,
};

/** One assistant turn calling recall twice, in each format. */
const calls: Record<RecallToolFormat, unknown> = {
  chat: {
    role: 'assistant',
    content: null,
    tool_calls: [
      { id: 'c1', type: 'function', function: { name: 'recall', arguments: '{"query":"#3"}' } },
      { id: 'c2', type: 'function', function: { name: 'recall', arguments: '{"query":""}' } },
    ],
  },
  responses: [
    { type: 'function_call', call_id: 'c1', name: 'recall', arguments: '{"query":"#3"}' },
    { type: 'function_call', call_id: 'c2', name: 'recall', arguments: '{"query":""}' },
  ],
  anthropic: {
    role: 'assistant',
    content: [
      { type: 'tool_use', id: 'toolu_1', name: 'recall', input: { query: '#3' } },
      { type: 'tool_use', id: 'toolu_2', name: 'recall', input: { query: '' } },
    ],
  },
  gemini: {
    role: 'model',
    parts: [
      { functionCall: { id: 'g1', name: 'recall', args: { query: '#3' } } },
      { functionCall: { id: 'g2', name: 'recall', args: { query: '' } } },
    ],
  },
  'ai-sdk': {
    role: 'assistant',
    content: [
      { type: 'tool-call', toolCallId: 'a1', toolName: 'recall', input: { query: '#3' } },
      { type: 'tool-call', toolCallId: 'a2', toolName: 'recall', input: { query: '' } },
    ],
  },
};

const found: RecallResult = {
  matches: [{ seq: 3, message: { role: 'user', content: 'TCK-4821' } }],
  omitted: [],
  truncated: false,
};
const fakeRecall = (query: string): Promise<RecallResult> =>
  query === ''
    ? Promise.reject(new RecallQueryError('the recall query names nothing to look for'))
    : Promise.resolve(found);

describe('the recall tool', () => {
  it('has one definition per provider shape, naming the tool recall with a string query', () => {
    assert.equal(shapes.chat.function.name, 'recall');
    assert.equal(shapes.responses.name, 'recall');
    assert.deepEqual(shapes.anthropic.input_schema.required, ['query']);
    assert.equal(shapes.gemini.functionDeclarations[0].name, 'recall');
    assert.deepEqual(
      (shapes['ai-sdk'].recall.inputSchema as { jsonSchema: unknown }).jsonSchema,
      shapes.chat.function.parameters
    );
    assert.throws(() => recallTool('typed' as RecallToolFormat), RangeError);
  });

  for (const format of Object.keys(calls) as RecallToolFormat[]) {
    it(`${format}: answers every recall call with a result the format pairs with it, errors as errors`, async () => {
      const output = calls[format];
      assert.equal(recallCalls(output, format).length, 2);
      const answers = await answerRecallCalls(output, format, fakeRecall);
      const transcript = normalize([...(Array.isArray(output) ? output : [output]), ...answers], format);
      assert.deepEqual(pendingCalls(transcript), [], 'every call answered');
      const text = JSON.stringify(answers);
      assert.ok(text.includes('TCK-4821'), 'the found message is in the result');
      assert.ok(text.includes('names nothing to look for'), 'the refused query is answered with its error');
      if (format === 'anthropic') {
        const blocks = (answers[0] as { content: { is_error?: boolean }[] }).content;
        assert.deepEqual(
          blocks.map((b) => b.is_error ?? false),
          [false, true]
        );
      }
    });
  }

  it('runs in an OpenAI agent loop as docs/client.md writes it, through the real SDK', async () => {
    const bodies: { tools?: unknown[]; messages: { role: string; tool_call_id?: string; content?: unknown }[] }[] = [];
    const server = await listenOnLoopback((req, res) => {
      let raw = '';
      req.on('data', (c: Buffer) => (raw += c.toString('utf8')));
      req.on('end', () => {
        bodies.push(JSON.parse(raw) as (typeof bodies)[number]);
        const message =
          bodies.length === 1
            ? {
                role: 'assistant',
                content: null,
                tool_calls: (calls.chat as { tool_calls: unknown[] }).tool_calls.slice(0, 1),
              }
            : { role: 'assistant', content: 'TCK-4821 it is.' };
        res.setHeader('content-type', 'application/json');
        res.end(
          JSON.stringify({
            id: `r${bodies.length}`,
            object: 'chat.completion',
            created: 0,
            model: 'gpt-4o',
            choices: [{ index: 0, message, finish_reason: message.content ? 'stop' : 'tool_calls' }],
            usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
          })
        );
      });
    });
    try {
      const openai = new OpenAI({ baseURL: `http://127.0.0.1:${server.port}/v1`, apiKey: 'test', maxRetries: 0 });
      const conv = { answerRecall: (output: unknown) => answerRecallCalls(output, 'chat', fakeRecall) };
      type Message = OpenAI.Chat.Completions.ChatCompletionMessageParam;
      const history: Message[] = [];
      let newMessages: unknown[] = [{ role: 'user', content: 'which ticket?' }];
      const tools = [recallTool('chat')];
      for (let step = 0; step < 3; step++) {
        history.push(...(newMessages as Message[]));
        newMessages = [];
        const reply = await openai.chat.completions.create({ model: 'gpt-4o', messages: history, tools });
        const output = reply.choices[0]!.message;
        history.push(output);
        // The three lines of docs/client.md, as written there:
        const answers = await conv.answerRecall(output);
        newMessages.push(...answers);
        if (answers.length > 0) continue;
        break;
      }
      const doc = readFileSync(join(__dirname, '..', '..', 'docs', 'client.md'), 'utf8');
      for (const line of [
        'const answers = await conv.answerRecall(output);',
        'newMessages.push(...answers);',
        'if (answers.length > 0) continue;',
      ])
        assert.ok(doc.includes(line), `docs/client.md has ${line}`);
      assert.equal(bodies.length, 2);
      assert.deepEqual(bodies[0]!.tools, [shapes.chat]);
      const result = bodies[1]!.messages.at(-1)!;
      assert.equal(result.role, 'tool');
      assert.equal(result.tool_call_id, 'c1');
      assert.deepEqual(JSON.parse(result.content as string), found);
    } finally {
      await server.close();
    }
  });
});

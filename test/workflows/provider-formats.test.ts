// Issue 24, items 2 and 3: Gemini and AI SDK conversations end to end through ConversationClient (a real dev
// server and worker, the SQLite archive): append, fold, context, archive; bad input is refused and stores nothing.
import { strict as assert } from 'node:assert';
import { ConversationClient } from '../../src/client/conversation-client';
import { ConversationUpdateError } from '../../src/client/errors';
import type { MessageFormat } from '../../src/core/messages/types';
import { uniqueConversationId, withConversationWorker, type ConversationHarness } from '../support/conversation';
import { geminiRuleViolations } from '../support/gemini-rules';
import { aiSdkRuleViolations } from '../support/ai-sdk-rules';

const filler = (label: string, words: number): string =>
  Array.from({ length: words }, (_, k) => `${label}-${k % 17} detail${(k * 7) % 13}`).join(' ');

/** One turn of an agent in a format: what the client sends (prepare) and what the model answers (record), twice. */
interface Turn {
  ask: unknown[];
  calls: unknown[];
  results: unknown[];
  answer: unknown[];
}

function geminiTurn(t: number): Turn {
  const id = `call-${t}`;
  return {
    ask: [{ role: 'user', parts: [{ text: `question ${t}: ${filler('q', 12)}` }] }],
    calls: [
      {
        role: 'model',
        parts: [
          { text: `thinking about ${t}`, thought: true },
          {
            functionCall: { id, name: 'read_file', args: { path: `src/f${t}.ts` } },
            thoughtSignature: `c2lnLSR7dH0t${t}`,
          },
          { functionCall: { name: 'list_dir', args: { path: 'src' } } },
        ],
      },
    ],
    results: [
      {
        role: 'user',
        parts: [
          { functionResponse: { id, name: 'read_file', response: { content: filler('out', 25) } } },
          { functionResponse: { name: 'list_dir', response: { entries: [`f${t}.ts`] } } },
        ],
      },
    ],
    answer: [{ role: 'model', parts: [{ text: `answer ${t}: ${filler('a', 10)}` }] }],
  };
}

function aiSdkTurn(t: number): Turn {
  const approval = t % 3 === 0;
  return {
    ask: [{ role: 'user', content: `question ${t}: ${filler('q', 12)}` }],
    calls: [
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: `thinking about ${t}`, providerOptions: { anthropic: { signature: `sig-${t}` } } },
          { type: 'tool-call', toolCallId: `tc-${t}`, toolName: 'readFile', input: { path: `src/f${t}.ts` } },
          ...(approval ? [{ type: 'tool-approval-request', approvalId: `ap-${t}`, toolCallId: `tc-${t}` }] : []),
        ],
      },
    ],
    results: [
      ...(approval
        ? [{ role: 'tool', content: [{ type: 'tool-approval-response', approvalId: `ap-${t}`, approved: true }] }]
        : []),
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: `tc-${t}`,
            toolName: 'readFile',
            output: { type: 'text', value: filler('out', 25) },
          },
        ],
      },
    ],
    answer: [
      {
        role: 'assistant',
        content: [
          {
            type: 'text',
            text: `answer ${t}: ${filler('a', 10)}`,
            providerOptions: { openai: { itemId: `msg_${t}` } },
          },
        ],
      },
    ],
  };
}

const CASES: {
  format: MessageFormat;
  turn: (t: number) => Turn;
  rules: typeof geminiRuleViolations;
  system: unknown;
}[] = [
  {
    format: 'gemini',
    turn: geminiTurn,
    rules: geminiRuleViolations,
    system: { role: 'system', parts: [{ text: 'You are a coding agent.' }] },
  },
  {
    format: 'ai-sdk',
    turn: aiSdkTurn,
    rules: aiSdkRuleViolations,
    system: { role: 'system', content: 'You are a coding agent.' },
  },
];

const refused = (pattern: RegExp) => (e: unknown) =>
  e instanceof ConversationUpdateError && e.type === 'InvalidAppend' && e.stored === false && pattern.test(e.message);

function client(h: ConversationHarness, label: string, format: MessageFormat): ConversationClient {
  return new ConversationClient({
    client: h.env.client,
    conversationId: uniqueConversationId(label),
    taskQueue: h.taskQueue,
    format,
    settings: { budget: 3000, foldMode: 'blocking' },
  });
}

for (const { format, turn, rules, system } of CASES) {
  describe(`${format} conversations through ConversationClient`, function () {
    this.timeout(240_000);

    it('20 turns at budget 3000: folds happen, every context keeps the provider rules, the archive is lossless', async () => {
      await withConversationWorker(async (h) => {
        const conv = client(h, `formats-${format}`, format);
        const sent: unknown[] = [system];
        let peak = 0;
        let first = true;
        for (let t = 0; t < 20; t++) {
          const { ask, calls, results, answer } = turn(t);
          const a = await conv.prepare(first ? [system, ...ask] : ask);
          first = false;
          await conv.record(calls);
          const b = await conv.prepare(results);
          await conv.record(answer);
          sent.push(...ask, ...calls, ...results, ...answer);
          peak = Math.max(peak, a.tokens, b.tokens);
          assert.deepEqual(rules(sent, b.messages), [], `context after turn ${t}`);
        }
        const state = await conv.state();
        assert.equal(state.format, format);
        assert.ok(state.folds >= 2, `folds happened: ${state.folds}`);
        assert.ok(peak <= 3000, `the context stayed under the budget: peak ${peak}`);
        const context = (await conv.context()).messages;
        assert.deepEqual(rules(sent, context), []);
        assert.deepEqual(context[0], system, 'the system element leads the context');
        const archived = (await h.archive.readAll(conv.workflowId)).map((a) => a.message);
        assert.deepEqual(archived, sent, 'every message archived once, in order, byte for byte');
        await conv.close();
      });
    });

    it('refuses bad input naming the element, and stores nothing', async () => {
      await withConversationWorker(async (h) => {
        const conv = client(h, `formats-bad-${format}`, format);
        const { ask, calls } = turn(1);
        await conv.prepare([system, ...ask]);
        await conv.record(calls);
        const before = await conv.context();
        const bad =
          format === 'gemini'
            ? [
                [
                  { role: 'user', parts: [{ functionResponse: { id: 'nope', name: 'f', response: {} } }] },
                  /message 0 of this append: .*'nope'.*no earlier call/,
                ],
                [
                  { role: 'model', parts: [{ toolUse: { name: 'f' } }] },
                  /message 0 of this append: parts\[0\] has an unknown shape/,
                ],
                [
                  {
                    role: 'model',
                    parts: [{ functionCall: { id: 'x', name: 'f' } }, { functionCall: { id: 'x', name: 'g' } }],
                  },
                  /message 0 of this append: .*share the id 'x'/,
                ],
              ]
            : [
                [
                  {
                    role: 'tool',
                    content: [
                      { type: 'tool-result', toolCallId: 'nope', toolName: 'f', output: { type: 'text', value: '' } },
                    ],
                  },
                  /message 0 of this append: .*'nope'.*no earlier call/,
                ],
                [
                  { role: 'assistant', content: [{ type: 'tool_invocation', id: 'x' }] },
                  /message 0 of this append: content\[0\] is a part of type "tool_invocation"/,
                ],
                [
                  { role: 'assistant', content: [{ type: 'tool_use', id: 'x', name: 'f', input: {} }] },
                  /message 0 of this append: .*Anthropic 'tool_use' block is 'anthropic' input/,
                ],
                [
                  {
                    role: 'assistant',
                    content: [0, 1].map(() => ({ type: 'tool-call', toolCallId: 'x', toolName: 'f', input: {} })),
                  },
                  /message 0 of this append: .*share the id 'x'/,
                ],
              ];
        for (const [message, pattern] of bad as [unknown, RegExp][]) {
          await assert.rejects(conv.prepare([message]), refused(pattern));
        }
        assert.deepEqual(await conv.context(), before, 'nothing stored');
        const archived = await h.archive.readAll(conv.workflowId);
        assert.equal(archived.length, 1 + ask.length + calls.length);
        await conv.close();
      });
    });
  });
}

// Issue 24, item 3: an AI SDK agent (the real `ai` package, its mock model) whose steps go through a conversation
// on a real dev server and worker. The model sees the conversation's context: folded once the run outgrows the
// budget, every tool call still answered, and every message the SDK produced stored once.
import { strict as assert } from 'node:assert';
import { generateText, jsonSchema, stepCountIs, tool, type ModelMessage } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { ConversationClient } from '../../src/client/conversation-client';
import { conversationSteps } from '../../src/client/ai-sdk-steps';
import { SUMMARY_MARKER } from '../../src/core/messages/summary-marker';
import { uniqueConversationId, withConversationWorker } from '../support/conversation';
import { aiSdkRuleViolations } from '../support/ai-sdk-rules';

const filler = (label: string, words: number): string =>
  Array.from({ length: words }, (_, k) => `${label}-${k % 17} detail${(k * 7) % 13}`).join(' ');

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

/** A model that reads a file on every step but the last, which answers. */
function readingModel(steps: number): MockLanguageModelV3 {
  let step = 0;
  return new MockLanguageModelV3({
    doGenerate: () => {
      step++;
      if (step % steps === 0) {
        return Promise.resolve({
          content: [{ type: 'text' as const, text: `done after ${step} steps: ${filler('a', 8)}` }],
          finishReason: { unified: 'stop' as const, raw: undefined },
          usage,
          warnings: [],
        });
      }
      return Promise.resolve({
        content: [
          {
            type: 'reasoning' as const,
            text: `step ${step}: read the next file`,
            providerMetadata: { anthropic: { signature: `sig-${step}` } },
          },
          {
            type: 'tool-call' as const,
            toolCallId: `call-${step}`,
            toolName: 'readFile',
            input: JSON.stringify({ path: `src/f${step}.ts` }),
          },
        ],
        finishReason: { unified: 'tool-calls' as const, raw: undefined },
        usage,
        warnings: [],
      });
    },
  });
}

const tools = {
  readFile: tool({
    description: 'Reads a file',
    // A JSON schema rather than zod: the same tool to the SDK, and far cheaper for the type checker.
    inputSchema: jsonSchema<{ path: string }>({
      type: 'object',
      properties: { path: { type: 'string' } },
      required: ['path'],
    }),
    execute: ({ path }) => Promise.resolve(`${path}: ${filler('line', 40)}`),
  }),
};

describe('AI SDK agents through a conversation (conversationSteps, real ai package)', function () {
  this.timeout(240_000);

  it('three agent runs of 8 steps at budget 3000: the model is handed the folded context, valid, every message stored once', async () => {
    await withConversationWorker(async ({ env, taskQueue, archive }) => {
      const conv = new ConversationClient({
        client: env.client,
        conversationId: uniqueConversationId('ai-sdk-steps'),
        taskQueue,
        format: 'ai-sdk',
        settings: { budget: 3000, foldMode: 'blocking' },
      });
      const model = readingModel(8);
      const steps = conversationSteps(conv);
      const history: ModelMessage[] = [{ role: 'system', content: 'You are a coding agent.' }];
      for (let run = 0; run < 3; run++) {
        history.push({ role: 'user', content: `task ${run}: ${filler('q', 12)}` });
        const result = await generateText({
          model,
          tools,
          messages: history,
          // The conversation keeps the system prompt as its leading message (an instructions item).
          allowSystemInMessages: true,
          stopWhen: stepCountIs(8),
          prepareStep: steps.prepareStep,
        });
        history.push(...result.response.messages);
        await steps.flush(history);
        assert.equal(result.steps.length, 8);
        assert.match(result.text, /^done after/);
      }
      const state = await conv.state();
      assert.equal(state.format, 'ai-sdk');
      assert.ok(state.folds >= 1, `folds happened: ${state.folds}`);
      // What the model was given: after the first fold, a summary instead of the whole run, and valid messages.
      const prompts = model.doGenerateCalls.map((c) => c.prompt);
      assert.equal(prompts.length, 24);
      const folded = prompts.filter((p) => JSON.stringify(p).includes(SUMMARY_MARKER));
      assert.ok(folded.length > 0, 'some step was handed a folded context');
      assert.ok(Math.max(...prompts.map((p) => p.length)) < history.length, 'no step was handed the whole history');
      const context = (await conv.context()).messages;
      assert.deepEqual(aiSdkRuleViolations(history, context), []);
      // The conversation holds what the SDK produced, once each, in order (the archive keeps everything).
      assert.equal(steps.stored(), history.length);
      assert.equal(history.length, 1 + 3 * (1 + 7 * 2 + 1));
      const archived = (await archive.readAll(conv.workflowId)).map((a) => a.message);
      assert.deepEqual(archived, JSON.parse(JSON.stringify(history)));
      await conv.close();
    });
  });
});

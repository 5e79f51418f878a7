/**
 * Folds written by Claude and by Gemini, end to end: a conversation that names an `anthropic` or a `gemini` profile of
 * the worker's configuration folds through the summarize activity, the real SDK and a local server speaking that
 * API; the summary joins the context, the fold record carries the provider's usage and response id, and the key
 * stays in the worker (history, fold records and context never hold it).
 */
import { strict as assert } from 'node:assert';
import type { ConversationClient } from '../../src/client/conversation-client';
import { corpusConversation } from '../support/corpus';
import { uniqueConversationId, withConversationWorker } from '../support/conversation';
import { startAnthropicServer, type AnthropicReply } from '../support/anthropic-server';
import { startGeminiServer, type GeminiReply } from '../support/gemini-server';
import type { ProviderServer } from '../support/provider-server';
import { testProfiles } from '../support/profiles';
import { SUMMARY_MARKER } from '../../src/core/messages/summary-marker';

const ANTHROPIC_KEY = 'sk-ant-worker-key-NEVER-IN-HISTORY-01';
const GEMINI_KEY = 'AIzaWorkerKeyNEVERINHISTORY0123456789';

/** Feeds a corpus session until a fold is applied. */
async function foldOnce(conv: ConversationClient): Promise<void> {
  for (const m of corpusConversation('tau2-bench-gpt41-retail-task38').messages) {
    const p = await conv.prepare([m]);
    if (p.fold?.ok) return;
  }
  assert.fail('no fold was applied');
}

const cases: {
  mode: 'anthropic' | 'gemini';
  start: () => Promise<ProviderServer<AnthropicReply> | ProviderServer<GeminiReply>>;
  reply: (text: string) => AnthropicReply & GeminiReply;
  env: Record<string, string>;
  key: string;
}[] = [
  {
    mode: 'anthropic',
    start: startAnthropicServer,
    reply: (text) => ({ kind: 'text', text, usage: { input: 900, output: 40 } }) as AnthropicReply & GeminiReply,
    env: { ANTHROPIC_API_KEY: ANTHROPIC_KEY },
    key: ANTHROPIC_KEY,
  },
  {
    mode: 'gemini',
    start: startGeminiServer,
    reply: (text) => ({ kind: 'text', text, usage: { prompt: 900, candidates: 40 } }) as AnthropicReply & GeminiReply,
    env: { GEMINI_API_KEY: GEMINI_KEY },
    key: GEMINI_KEY,
  },
];

describe('provider summarizers end to end (anthropic, gemini profiles)', function () {
  this.timeout(180_000);
  for (const c of cases) {
    it(`${c.mode}: a fold is written by the provider, recorded with its usage, and the key stays in the worker`, async () => {
      const server = await c.start();
      try {
        const summary = `Customer order #W2378156 is being exchanged; ${c.mode} wrote this summary.`;
        (server as ProviderServer<AnthropicReply & GeminiReply>).script(c.reply(summary), c.reply(summary));
        // No apiKeyEnv: the key is read from the mode's own variable (ANTHROPIC_API_KEY, GEMINI_API_KEY).
        const profiles = testProfiles('http://127.0.0.1:1/v1', {
          [c.mode]: { mode: c.mode, baseURL: server.origin, model: `${c.mode}-model` },
        });
        await withConversationWorker(
          async ({ open, env }) => {
            const conv = open(uniqueConversationId(`provider-${c.mode}`), {
              budget: 3000,
              summarizer: { profile: c.mode },
              foldMode: 'blocking',
            });
            await foldOnce(conv);
            const folds = await conv.folds();
            const applied = folds.filter((f) => f.ok);
            assert.equal(applied.length, 1);
            assert.equal(applied[0]!.responseId, c.mode === 'anthropic' ? 'msg_1' : 'resp-1');
            assert.equal(applied[0]!.usage?.outputTokens, 40);
            const context = await conv.context();
            const summaryMessage = context.messages.find((m) => JSON.stringify(m).includes(SUMMARY_MARKER));
            assert.ok(summaryMessage, 'the context leads with a summary');
            assert.ok(JSON.stringify(summaryMessage).includes(`${c.mode} wrote this summary`));
            assert.equal(server.requests.length, 1, 'one summary call');
            const sent = server.requests[0]!;
            if (c.mode === 'anthropic') assert.equal(sent.body?.model, 'anthropic-model');
            else assert.match(sent.path, /\/models\/gemini-model:generateContent$/);
            const history = await env.client.workflow.getHandle(conv.workflowId).fetchHistory();
            const text = JSON.stringify(history);
            assert.ok(!text.includes(c.key), 'the key is not in the history');
            assert.ok(!JSON.stringify(folds).includes(c.key));
          },
          { profiles, summarize: { env: c.env } }
        );
      } finally {
        await server.close();
      }
    });
  }
});

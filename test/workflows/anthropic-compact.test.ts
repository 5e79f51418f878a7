/**
 * Anthropic's server-side compaction end to end: a real Claude Code session in the `anthropic` format, on a profile
 * of mode `anthropic-compact`, folds through the summarize activity, the real SDK and a local server that checks the
 * compaction request; the returned `compaction` block opens the context byte for byte in a user turn of its own,
 * every context stays valid API input, and the key stays in the worker.
 */
import { strict as assert } from 'node:assert';
import { ConversationClient } from '../../src/client/conversation-client';
import { anthropicProblems } from '../support/anthropic-rules';
import { startAnthropicServer, type AnthropicReply } from '../support/anthropic-server';
import { anthropicSessions } from '../support/corpus';
import { uniqueConversationId, withConversationWorker } from '../support/conversation';
import { testProfiles } from '../support/profiles';

const KEY = 'sk-ant-worker-key-NEVER-IN-HISTORY-02';

/** The n-th block the server returns: opaque fields the service must never touch. */
const blockOf = (n: number): Record<string, unknown> => ({
  type: 'compaction',
  content: `Compacted session, part ${n}: the user works on the spotter project.`,
  encrypted_content: `b3BhcXVl-${n}-\u00e9\u2603`,
  signature: `c2ln-${n}==`,
});

describe('anthropic-compact end to end', function () {
  this.timeout(300_000);

  it('folds an Anthropic conversation into the returned compaction block, kept byte for byte', async () => {
    const server = await startAnthropicServer();
    try {
      const replies: AnthropicReply[] = [1, 2, 3, 4, 5, 6].map((n) => ({ kind: 'compaction', block: blockOf(n) }));
      server.script(...replies);
      const profiles = testProfiles('http://127.0.0.1:1/v1', {
        compactor: { mode: 'anthropic-compact', baseURL: server.origin, model: 'claude-opus-4-6' },
      });
      const messages = anthropicSessions().find((s) => s.name === 'claude-code-spotter-4d5611e5')!.messages;
      await withConversationWorker(
        async ({ env, taskQueue }) => {
          const conv = new ConversationClient({
            client: env.client,
            conversationId: uniqueConversationId('anthropic-compact'),
            taskQueue,
            format: 'anthropic',
            settings: {
              model: 'claude-opus-4-6',
              budget: 16_000,
              summarizer: { profile: 'compactor' },
              foldMode: 'blocking',
            },
          });
          let at = 0;
          /** Feeds the session on from `at` until a fold is applied; every context must be valid API input. */
          const feedUntilFold = async (): Promise<boolean> => {
            while (at < messages.length) {
              const p = await conv.prepare([messages[at++]]);
              assert.deepEqual(anthropicProblems(p.messages, messages), [], `context after message ${at - 1}`);
              if (p.fold?.ok) return true;
            }
            return false;
          };
          assert.ok(await feedUntilFold(), 'a fold was applied');
          const folds = await conv.folds();
          assert.equal(folds.filter((f) => f.ok).length, 1);
          assert.equal(folds[0]!.responseId, 'msg_1');
          assert.equal(server.requests.length, 1, 'one compaction call');
          const sent = server.requests[0]!.body!;
          assert.deepEqual(sent.compaction, { type: 'summarize' });
          assert.equal(sent.model, 'claude-opus-4-6');
          const originals = new Set(messages.map((m) => JSON.stringify(m)));
          for (const m of sent.messages as unknown[])
            assert.ok(originals.has(JSON.stringify(m)), 'the head as written');
          const context = (await conv.context()).messages;
          assert.equal(
            JSON.stringify(context[0]),
            JSON.stringify({ role: 'user', content: [blockOf(1)] }),
            'the context opens with the block, byte for byte, alone in a user turn'
          );
          assert.deepEqual(anthropicProblems(context, messages), []);
          // The kept tail is the originals, but for oversized tool results, which the plan clips (clip-oversized.ts).
          const resultIds = (m: unknown): string => {
            const c = (m as { content: unknown }).content;
            return Array.isArray(c) ? JSON.stringify(c.map((b: { tool_use_id?: string }) => b.tool_use_id)) : '';
          };
          const clippable = new Set(messages.filter((m) => /"tool_result"/.test(JSON.stringify(m))).map(resultIds));
          for (const m of context.slice(1)) {
            const kept = originals.has(JSON.stringify(m)) || clippable.has(resultIds(m));
            assert.ok(kept, `kept unedited or a clipped tool result: ${JSON.stringify(m).slice(0, 200)}`);
          }
          assert.equal(
            JSON.stringify(context).split('"type":"compaction"').length,
            2,
            'the block is in the context once'
          );
          // The next fold sends the block back first, as the API wants it, and the new block replaces it.
          assert.ok(await feedUntilFold(), 'a second fold was applied');
          assert.equal(server.requests.length, 2);
          const resent = server.requests[1]!.body!.messages as unknown[];
          assert.equal(JSON.stringify(resent[0]), JSON.stringify({ role: 'user', content: [blockOf(1)] }));
          const after = (await conv.context()).messages;
          assert.equal(JSON.stringify(after[0]), JSON.stringify({ role: 'user', content: [blockOf(2)] }));
          assert.ok(!JSON.stringify(after).includes(String(blockOf(1).signature)), 'the first block left the context');
          const history = JSON.stringify(await env.client.workflow.getHandle(conv.workflowId).fetchHistory());
          assert.ok(!history.includes(KEY), 'the key is not in the history');
          assert.ok(!JSON.stringify(folds).includes(KEY));
        },
        { profiles, summarize: { env: { ANTHROPIC_API_KEY: KEY } } }
      );
    } finally {
      await server.close();
    }
  });
});

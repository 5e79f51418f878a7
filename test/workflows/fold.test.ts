import { strict as assert } from 'node:assert';
import { runInspect } from '../../src/cli/inspect';
import { isMarkedSummary } from '../../src/core/messages/text';
import { createTokenCounter } from '../../src/tokens';
import { corpusConversation } from '../support/corpus';
import { driveConversation } from '../support/drive';
import { useOpenAIServer } from '../support/openai-server';
import { uniqueConversationId, withConversationWorker } from '../support/conversation';
import { conversationWorkflowId } from '../../src/contract/definitions';
import { TEST_CHAT_PROFILE, testProfiles } from '../support/profiles';

const counter = createTokenCounter({ model: 'gpt-4o' });
const contextTokens = (messages: unknown[]): number =>
  counter.countMessages(messages, 'chat').reduce((a, b) => a + b, 0) + counter.replyPriming;
const user = (text: string) => ({ role: 'user', content: text });

describe('folding in the conversation workflow', function () {
  this.timeout(300_000);

  it('folds a real session with the extractive summarizer, stays within budget, and loses nothing', async () => {
    const { messages } = corpusConversation('tau2-bench-gpt41-airline-task18');
    const budget = 8000;
    await withConversationWorker(async ({ open, archive, dataDir }) => {
      const id = uniqueConversationId('fold-extractive');
      const conv = open(id, { budget });
      const sizes: number[] = [];
      await driveConversation(conv, messages, (prepared) => {
        const counted = contextTokens(prepared.messages);
        sizes.push(counted);
        assert.ok(counted <= budget, `context of ${counted} tokens is over the ${budget}-token budget`);
      });
      const folds = await conv.folds();
      assert.ok(folds.length >= 2, `expected at least two folds, got ${folds.length}`);
      for (const f of folds) {
        assert.equal(f.ok, true, `fold ${f.number} failed: ${f.error?.message}`);
        assert.ok(f.tokensAfter! < f.tokensBefore, 'a fold makes the context smaller');
        assert.ok(f.archiveRange, 'a fold names the archive range it replaced');
      }
      const context = (await conv.context()).messages;
      const summaries = context.filter(
        (m) =>
          typeof (m as { content?: unknown }).content === 'string' &&
          isMarkedSummary((m as { content: string }).content)
      );
      assert.equal(summaries.length, 1, 'one summary: a previous summary is folded into the next, never stacked');
      // Nothing is lost: the archive holds every original message, in order, untouched.
      const archived = await archive.readAll(conversationWorkflowId(id));
      assert.deepEqual(
        archived.map((a) => a.message),
        messages
      );
      assert.deepEqual(
        archived.map((a) => a.seq),
        messages.map((_, i) => i)
      );
      // And every live message that is not a summary is an original one.
      const originals = new Set(messages.map((m) => JSON.stringify(m)));
      for (const m of context) assert.ok(originals.has(JSON.stringify(m)) || summaries.includes(m));
      const recorded = await archive.folds(conversationWorkflowId(id));
      assert.deepEqual(
        recorded.map((r) => r.number),
        folds.map((f) => f.number)
      );
      // `durable-compaction inspect` shows which archive range each summary replaced.
      const lines: string[] = [];
      const io = { stdout: (l: string) => lines.push(l), stderr: (l: string) => lines.push(l) };
      assert.equal(await runInspect(['--conversation', id, '--data', dataDir], io), 0);
      const inspected = JSON.parse(lines[0]!) as { archived: number; folds: { number: number; replaced: unknown }[] };
      assert.equal(inspected.archived, messages.length);
      assert.deepEqual(
        inspected.folds.map((f) => f.replaced),
        folds.map((f) => f.archiveRange)
      );
      // The first summary replaced the archive from the first message after the system prompt, which stays.
      assert.equal(folds[0]!.archiveRange!.firstSeq, 1);
    });
  });

  describe('with a model summarizer that fails', () => {
    const server = useOpenAIServer();

    it('sends the context unfolded, backs off the same prefix, and folds once it has grown', async () => {
      const { messages } = corpusConversation('tau2-bench-gpt41-retail-task38');
      const budget = 2500;
      await withConversationWorker(
        async ({ open }) => {
          const conv = open(uniqueConversationId('fold-backoff'), {
            budget,
            summarizer: { profile: TEST_CHAT_PROFILE },
          });
          server.script({ kind: 'empty' }, { kind: 'empty' });
          let failedAt = -1;
          let step = 0;
          let prepared;
          // Feed the session until the first fold attempt, which fails twice (no text) and leaves things unfolded.
          for (const m of messages) {
            prepared = await conv.prepare([m]);
            step++;
            if (prepared.fold) {
              failedAt = step;
              break;
            }
          }
          assert.ok(prepared?.fold, 'a fold was attempted');
          assert.equal(prepared.fold.ok, false);
          assert.equal(server.requests.length, 2, 'asked once more, then gave up');
          const state = await conv.state();
          assert.ok(state.backoff, 'the failure is remembered');
          const folds = await conv.folds();
          assert.equal(folds[0]!.error?.kind, 'no_text');
          assert.equal(folds[0]!.attempts, 2);
          // One short message more: the same prefix would fail the same way, so no summarizer call.
          const again = await conv.prepare([user('ok')]);
          assert.match(again.decision, /backing off/);
          assert.equal(server.requests.length, 2);
          // Grown by a quarter of the budget: worth trying again, and this time the summary is fine.
          server.script({ kind: 'text', text: 'The customer asked about an order; the agent looked it up.' });
          const filler = user('Here are more details about my order. '.repeat(Math.ceil(budget / 4 / 7)));
          const grown = await conv.prepare([filler]);
          assert.equal(server.requests.length, 3);
          assert.equal(grown.fold?.ok, true, grown.decision);
          assert.ok(failedAt > 0);
          const body = server.requests[2]!.body!;
          assert.equal(body.tools, undefined, 'no tools in a summary request');
          assert.equal(JSON.stringify(body).includes('sk-test-secret'), false);
        },
        { profiles: testProfiles(server.baseURL), summarize: { env: { DC_TEST_KEY: 'sk-test-secret' } } }
      );
    });
  });
});

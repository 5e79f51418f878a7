/**
 * `compactNow` through `ConversationClient` on the real dev server: it folds a conversation below its trigger, keeps
 * the summary text and the request digest with the fold in the archive, sends the focus and the conversation's system
 * prompt to the summarizer, refuses bad input without changing anything, and says when there is nothing to fold.
 */
import { strict as assert } from 'node:assert';
import { ConversationClosedError, ConversationUpdateError } from '../../../src/client/errors';
import type { ConversationClient } from '../../../src/client/conversation-client';
import { isMarkedSummary } from '../../../src/core/messages/text';
import { conversationWorkflowId } from '../../../src/contract/definitions';
import { MAX_FOCUS_CHARS } from '../../../src/contract/compact-now';
import { startOpenAIServer } from '../../support/openai-server';
import { TEST_CHAT_PROFILE, testProfiles } from '../../support/profiles';
import { uniqueConversationId, withConversationWorker } from '../../support/conversation';
import { system, user } from '../../support/shop-conversation';

/** An assistant note of about 40 tokens, different for every `i` (its tracking code is `TRK<i>X`). */
const note = (i: number) => ({
  role: 'assistant',
  content: `Order ${1000 + i} is packed in warehouse ${i} and ships tomorrow with tracking code TRK${i}X; the customer was told the delivery window is two to three days.`,
});

/** Appends `turns` user/assistant turns (none reaches the trigger of the budgets used here). */
async function converse(conv: ConversationClient, turns: number): Promise<void> {
  await conv.prepare([system, user(0)]);
  await conv.record(note(0));
  for (let i = 1; i < turns; i++) {
    const p = await conv.prepare([user(i)]);
    assert.equal(p.fold, undefined, `turn ${i} did not fold by itself`);
    await conv.record(note(i));
  }
}

const summaryOf = (messages: unknown[]): string => {
  const found = messages
    .map((m) => (m as { content?: unknown }).content)
    .find((c): c is string => typeof c === 'string' && isMarkedSummary(c));
  assert.ok(found, 'the context holds a summary');
  return found;
};

describe('compactNow on the real dev server', function () {
  this.timeout(240_000);

  it('folds now (offline), keeps the summary and its request digest in the archive, and the focus steers it', async () => {
    await withConversationWorker(async ({ open, archive }) => {
      const ask = async (focus?: string) => {
        const id = uniqueConversationId('compact-offline');
        const conv = open(id, { budget: 32_000 });
        await converse(conv, 30);
        assert.deepEqual(await conv.folds(), [], 'no fold before compactNow');
        const result = await conv.compactNow(focus === undefined ? {} : { focus });
        return { id, conv, result };
      };
      const plain = await ask();
      const focused = await ask('TRK1X');
      for (const { id, conv, result } of [plain, focused]) {
        assert.equal(result.folded, true, result.decision);
        assert.equal(result.fold?.number, 1);
        assert.ok(result.fold.tokensAfter < result.fold.tokensBefore);
        const context = await conv.context();
        assert.equal(result.version, context.version);
        assert.deepEqual(context.messages[0], system, 'the system prompt stays first');
        const [record] = await archive.folds(conversationWorkflowId(id));
        assert.match(record!.requestDigest ?? '', /^[0-9a-f]{64}$/);
        const stored = await archive.summaries(conversationWorkflowId(id));
        assert.deepEqual(
          stored.map((s) => s.digest),
          [record!.requestDigest]
        );
        assert.ok(summaryOf(context.messages).includes(stored[0]!.text.trim()), 'the stored text is the summary sent');
      }
      // Turn 1's note is folded early and is not the newest fact: only the focus on its tracking code keeps it.
      const sentence = 'Order 1001 is packed in warehouse 1 and ships tomorrow';
      const plainText = (await archive.summaries(conversationWorkflowId(plain.id)))[0]!.text;
      const focusedText = (await archive.summaries(conversationWorkflowId(focused.id)))[0]!.text;
      assert.ok(!plainText.includes(sentence), 'without a focus, the early note is not in the summary');
      const section = focusedText.split('\n\n').find((p) => p.startsWith('Kept first, as asked (focus: TRK1X):'));
      assert.ok(section?.includes(sentence), `with its tracking code as the focus, it is kept: ${focusedText}`);
      assert.notEqual(
        (await archive.folds(conversationWorkflowId(plain.id)))[0]!.requestDigest,
        (await archive.folds(conversationWorkflowId(focused.id)))[0]!.requestDigest,
        'the focus is part of the request'
      );
    });
  });

  it('sends the focus after the instructions and the system prompt first (chat profile), recorded by digest', async () => {
    const server = await startOpenAIServer({ lifetimeMs: 240_000 });
    try {
      const reply = 'Summary: orders 1000 to 1005 ship tomorrow; order 1003 needs a new address.';
      server.script({ kind: 'text', text: reply });
      await withConversationWorker(
        async ({ open, archive }) => {
          const id = uniqueConversationId('compact-chat');
          const conv = open(id, { budget: 32_000, summarizer: { profile: TEST_CHAT_PROFILE } });
          await converse(conv, 6);
          const result = await conv.compactNow({ focus: '  the address change of order 1003  ' });
          assert.equal(result.folded, true, result.decision);
          assert.equal(server.requests.length, 1, 'one summary call');
          const messages = server.requests[0]!.body?.messages as { role: string; content: string }[];
          assert.deepEqual(messages[0], { role: 'system', content: system.content }, 'the system prompt leads');
          const last = messages[messages.length - 1]!.content;
          assert.ok(
            last.endsWith('Focus of this summary (asked for by the user): the address change of order 1003'),
            last.slice(-200)
          );
          const [record] = await archive.folds(conversationWorkflowId(id));
          const [stored] = await archive.summaries(conversationWorkflowId(id));
          assert.equal(stored!.digest, record!.requestDigest);
          assert.ok(stored!.text.startsWith(reply), stored!.text.slice(0, 200));
        },
        { profiles: testProfiles(server.baseURL), summarize: { env: { DC_TEST_KEY: 'sk-compact-now' } } }
      );
    } finally {
      await server.close();
    }
  });

  it('finishes a background fold in flight first, then folds what is left', async () => {
    const server = await startOpenAIServer({ lifetimeMs: 240_000 });
    try {
      server.script(
        { kind: 'slow', ms: 3000, text: 'Summary one: orders 1000 and up ship tomorrow.' },
        { kind: 'text', text: 'Summary two: every order ships tomorrow.' }
      );
      await withConversationWorker(
        async ({ open, archive }) => {
          const id = uniqueConversationId('compact-in-flight');
          const conv = open(id, { budget: 6000, summarizer: { profile: TEST_CHAT_PROFILE } });
          await conv.prepare([system, user(0)]);
          let inFlight = false;
          for (let i = 1; i < 30 && !inFlight; i++) {
            await conv.record(note(i - 1));
            inFlight = (await conv.prepare([user(i)])).folding?.phase === 'summarizing';
          }
          assert.ok(inFlight, 'a background fold is being summarized');
          const result = await conv.compactNow({ focus: 'shipping' });
          assert.equal(result.folded, true, result.decision);
          assert.match(result.decision, /^folded: .*; folded: /, 'the fold in flight first, then the rest');
          const folds = await conv.folds();
          assert.deepEqual(
            folds.map((f) => [f.number, f.ok]),
            [
              [1, true],
              [2, true],
            ]
          );
          assert.equal(result.fold?.number, 2);
          assert.equal(server.requests.length, 2);
          const second = server.requests[1]!.body?.messages as { content: string }[];
          assert.ok(
            second.some((m) => m.content.includes('Summary one')),
            'the second fold folds the first summary'
          );
          assert.ok(second[second.length - 1]!.content.endsWith('(asked for by the user): shipping'));
          const stored = await archive.summaries(conversationWorkflowId(id));
          assert.deepEqual(
            stored.map((s) => s.digest),
            folds.map((f) => f.requestDigest)
          );
          assert.ok(summaryOf((await conv.context()).messages).includes('Summary two'));
        },
        { profiles: testProfiles(server.baseURL), summarize: { env: { DC_TEST_KEY: 'sk-compact-now' } } }
      );
    } finally {
      await server.close();
    }
  });

  it('refuses bad input with InvalidAppend and a closed conversation, changing nothing; says when nothing folds', async () => {
    await withConversationWorker(async ({ open }) => {
      const conv = open(uniqueConversationId('compact-refusals'), { budget: 32_000 });
      await conv.prepare([system, user(0)]);
      const nothing = await conv.compactNow();
      assert.equal(nothing.folded, false);
      assert.equal(nothing.fold, null);
      assert.match(nothing.decision, /^nothing to fold: only 2 item\(s\); at least 4 are needed to fold/);
      await converse(conv, 4);
      const before = await conv.context();
      const bad: [unknown, RegExp][] = [
        [{ focus: 'x'.repeat(MAX_FOCUS_CHARS + 1) }, /focus must be at most 2000 characters, got 2001 characters/],
        [{ focus: 7 }, /focus must be a string, got 7/],
        [{ focus: 'a', scope: 'all' }, /unknown key 'scope'; known: focus/],
        ['now', /must be an object \{focus\?\}/],
      ];
      for (const [input, why] of bad) {
        await assert.rejects(
          conv.compactNow(input as never),
          (err: Error) =>
            err instanceof ConversationUpdateError && err.type === 'InvalidAppend' && why.test(err.message)
        );
      }
      assert.deepEqual(await conv.context(), before, 'a refused call changes nothing');
      assert.deepEqual(await conv.folds(), []);
      await conv.close();
      await assert.rejects(conv.compactNow({ focus: 'x' }), ConversationClosedError);
    });
  });
});

/**
 * Pins from the client through the real workflow: `pin: true` on appended messages (ConversationClient and the raw
 * update input) and `settings.rules` survive every fold verbatim, count against the budget, never reach the model
 * with their flag, and are refused with a clear failure when they alone would take more than a quarter of it.
 */
import { strict as assert } from 'node:assert';
import { ConversationUpdateError } from '../../src/client/errors';
import { createTokenCounter } from '../../src/tokens';
import { conversationWorkflowId } from '../../src/contract/definitions';
import { RULES_TITLE } from '../../src/workflows/conversation/pinned-messages';
import { uniqueConversationId, withConversationWorker } from '../support/conversation';
import { workflowTaskFailures } from '../support/history';

const counter = createTokenCounter({ model: 'gpt-4o' });
const contextTokens = (messages: unknown[]): number =>
  counter.countMessages(messages, 'chat').reduce((a, b) => a + b, 0) + counter.replyPriming;
const user = (text: string) => ({ role: 'user', content: text });
const assistant = (text: string) => ({ role: 'assistant', content: text });
const contentOf = (m: unknown): unknown => (m as { content?: unknown }).content;
const hasPinKey = (messages: unknown[]): boolean => messages.some((m) => 'pin' in (m as object));

const SYSTEM = { role: 'system', content: 'You are a careful travel agent.' };
const RULE = 'Never book a flight that departs before 07:00 without asking the traveller first.';
const RECORDED = 'Pinned through record: the traveller needs a wheelchair at every connection.';
const PINNED = 'Pinned note from the traveller: my loyalty number is QX-88213 and my seat is always an aisle seat.';

/** One round of filler work: about 250 tokens, each with its own order number. */
function round(i: number): unknown[] {
  const detail = `Checked fare class, baggage rules and change fees for order ${5000 + i}. `.repeat(8);
  return [user(`Request ${i}: look at order ${5000 + i} and tell me what changes. ${detail}`), assistant(`Done ${i}.`)];
}

describe('pinned messages and settings.rules in the conversation workflow', function () {
  this.timeout(300_000);

  it('keeps pins and rules verbatim through many folds, within the budget, never sending the flag', async () => {
    const budget = 2000;
    await withConversationWorker(async ({ env, open, archive }) => {
      const id = uniqueConversationId('pins-folds');
      const conv = open(id, { budget, rules: [RULE] });
      let prepared = await conv.prepare<unknown>([SYSTEM, { ...user(PINNED), pin: true }]);
      // A pin sent through the raw update input (another language's client) is honoured the same way.
      const handle = env.client.workflow.getHandle(conversationWorkflowId(id));
      await handle.executeUpdate('append', {
        args: [
          {
            messages: [
              {
                role: 'user',
                content: 'Raw pin: invoices go to ap@example.org.',
                pin: true,
              },
            ],
          },
        ],
      });
      // And through `record` (which appends without a fold decision).
      await conv.record({ role: 'user', content: RECORDED, pin: true });
      let folds = 0;
      for (let i = 0; folds < 6 && i < 200; i++) {
        const [ask, answer] = round(i);
        prepared = await conv.prepare([ask]);
        await conv.record(answer);
        if (prepared.fold?.ok) folds++;
        const messages = prepared.messages;
        assert.equal(hasPinKey(messages), false, `round ${i}: a pin flag reached what is sent`);
        assert.deepEqual(messages[0], SYSTEM, `round ${i}: the system prompt first`);
        assert.equal(contentOf(messages[1]), `${RULES_TITLE}\n- ${RULE}`, `round ${i}: the rules right after it`);
        assert.ok(
          messages.some((m) => contentOf(m) === PINNED),
          `round ${i}: the pinned message verbatim`
        );
        assert.ok(messages.some((m) => contentOf(m) === 'Raw pin: invoices go to ap@example.org.'));
        assert.ok(
          messages.some((m) => contentOf(m) === RECORDED),
          `round ${i}: the message pinned through record`
        );
        const tokens = contextTokens(messages);
        assert.ok(tokens <= budget, `round ${i}: ${tokens} tokens over the budget of ${budget}`);
      }
      assert.ok(folds >= 6, `only ${folds} folds`);
      const records = await conv.folds();
      assert.ok(records.every((r) => r.ok));
      // The pinned messages are kept, not re-summarised into oblivion: each fold pins their positions.
      assert.ok(records.slice(-3).every((r) => r.pinned.length >= 3));
      // The archive holds the message as sent, minus the flag.
      const archived = await archive.readAll(conversationWorkflowId(id));
      assert.deepEqual(archived[1]!.message, user(PINNED));
      assert.equal(hasPinKey((await conv.context()).messages), false);
      // clear keeps the system prompt, the rules and the pinned messages.
      await conv.clear();
      const cleared = (await conv.context()).messages;
      assert.deepEqual(cleared.map(contentOf), [
        SYSTEM.content,
        `${RULES_TITLE}\n- ${RULE}`,
        PINNED,
        'Raw pin: invoices go to ap@example.org.',
        RECORDED,
      ]);
      assert.equal(await workflowTaskFailures(handle), 0);
    });
  });

  it('replaces the rules by configure and refuses pins over a quarter of the budget, storing nothing', async () => {
    await withConversationWorker(async ({ env, open }) => {
      const id = uniqueConversationId('pins-budget');
      const conv = open(id, { budget: 1024 });
      await conv.prepare([SYSTEM, user('hello')]);
      const settings = await conv.configure({
        rules: ['Answer in French.', 'Never reveal the PNR.'],
      });
      assert.deepEqual(settings.rules, ['Answer in French.', 'Never reveal the PNR.']);
      let context = (await conv.context()).messages;
      assert.equal(contentOf(context[1]), `${RULES_TITLE}\n- Answer in French.\n- Never reveal the PNR.`);
      await conv.configure({ rules: ['Answer in German.'] });
      context = (await conv.context()).messages;
      assert.deepEqual(context.map(contentOf), [SYSTEM.content, `${RULES_TITLE}\n- Answer in German.`, 'hello']);
      const before = await conv.state();
      // 256 tokens may be pinned at a budget of 1024: a pinned message of ~400 tokens is refused.
      const long = {
        ...user(`Remember all of this: ${'the aisle seat, the loyalty number, '.repeat(50)}`),
        pin: true,
      };
      await assert.rejects(
        conv.prepare([long]),
        (e: unknown) =>
          e instanceof ConversationUpdateError &&
          e.type === 'InvalidAppend' &&
          e.stored === false &&
          /pinned messages and rules would take \d+ tokens, over the 256 they may take/.test(e.message)
      );
      // Rules over the quarter, or a budget that leaves the pins over it, are refused by configure.
      await assert.rejects(
        conv.configure({
          rules: Array.from({ length: 12 }, (_, i) => `Rule ${i}: ${'be precise and brief. '.repeat(6)}`),
        }),
        (e: unknown) =>
          e instanceof ConversationUpdateError && e.type === 'InvalidSettings' && /quarter/.test(e.message)
      );
      // About 140 tokens pinned with the rules: within 256, over the 128 of a budget of 512.
      await conv.prepare([{ ...user(`Pinned: ${'no red-eye flights, '.repeat(24)}`), pin: true }]);
      await assert.rejects(
        conv.configure({ budget: 512 }),
        (e: unknown) =>
          e instanceof ConversationUpdateError && e.type === 'InvalidSettings' && /quarter/.test(e.message)
      );
      const after = await conv.state();
      assert.equal(after.settings.budget, 1024);
      assert.deepEqual(after.settings.rules, ['Answer in German.']);
      assert.equal(after.archived, before.archived + 1, 'only the accepted pinned message was archived');
      // Unpinned through configure: rules [] removes the rules element.
      await conv.configure({ rules: [] });
      context = (await conv.context()).messages;
      assert.ok(!context.some((m) => String(contentOf(m)).startsWith(RULES_TITLE)));
      const handle = env.client.workflow.getHandle(conversationWorkflowId(id));
      assert.equal(await workflowTaskFailures(handle), 0);
    });
  });
});

// Issue 24: an Anthropic Messages conversation end to end through ConversationClient: a real Claude Code session is
// driven step by step at a 16k budget; every context handed back passes the API's rules (checked by a checker
// written from the docs), folds keep signed turns byte-for-byte or fold them whole, the archive holds every original.
import { strict as assert } from 'node:assert';
import { ConversationClient } from '../../src/client/conversation-client';
import { ConversationUpdateError } from '../../src/client/errors';
import { conversationWorkflowId } from '../../src/contract/definitions';
import { holdsSignedBlocks } from '../../src/core/messages/anthropic';
import { isMarkedSummary } from '../../src/core/messages/text';
import { anthropicProblems } from '../support/anthropic-rules';
import { anthropicSessions } from '../support/corpus';
import { driveConversation } from '../support/drive';
import { uniqueConversationId, withConversationWorker } from '../support/conversation';

const refused = (pattern: RegExp) => (e: unknown) =>
  e instanceof ConversationUpdateError && e.type === 'InvalidAppend' && e.stored === false && pattern.test(e.message);
const textOf = (m: unknown): string => {
  const c = (m as { content: unknown }).content;
  const first: unknown = Array.isArray(c) ? (c[0] as { text?: unknown }).text : c;
  return typeof first === 'string' ? first : '';
};

describe('anthropic conversations through the workflow', function () {
  this.timeout(600_000);

  it('a real Claude Code session: append, fold, context, archive export; every context is valid API input', async () => {
    const session = anthropicSessions().find((s) => s.name === 'claude-code-spotter-4d5611e5')!;
    const messages = session.messages;
    await withConversationWorker(async ({ env, taskQueue, archive }) => {
      const id = uniqueConversationId('anthropic');
      const conv = new ConversationClient({
        client: env.client,
        conversationId: id,
        taskQueue,
        format: 'anthropic',
        settings: { model: 'claude-sonnet-4-5', budget: 16_000 },
      });
      let checked = 0;
      await driveConversation(
        conv,
        messages,
        (prepared) => {
          assert.deepEqual(anthropicProblems(prepared.messages, messages), [], `context ${checked}`);
          checked++;
        },
        'output'
      );
      assert.equal((await conv.state()).format, 'anthropic');
      const folds = await conv.folds();
      assert.ok(folds.length >= 2, `expected folds, got ${folds.length}`);
      for (const f of folds) assert.equal(f.ok, true, `fold ${f.number}: ${f.error?.message}`);
      const context = (await conv.context()).messages;
      const summaries = context.filter((m) => (m as { role: string }).role === 'user' && isMarkedSummary(textOf(m)));
      assert.equal(summaries.length, 1, 'one summary, a user turn with a text block');
      assert.equal(context[0], summaries[0], 'the summary opens the context (the session has no system element)');
      const originals = new Set(messages.map((m) => JSON.stringify(m)));
      for (const m of context) {
        if (m === summaries[0]) continue;
        const what = holdsSignedBlocks(m) ? 'a turn with thinking blocks' : 'every other live message';
        assert.ok(originals.has(JSON.stringify(m)), `${what} is an original, unedited`);
      }
      const archived = await archive.readAll(conversationWorkflowId(id));
      assert.deepEqual(
        archived.map((a) => a.message),
        messages,
        'the archive holds every original message, in order'
      );
      await conv.close();
    });
  });

  it('refuses another format, and bad Anthropic input, naming the message; nothing is stored', async () => {
    await withConversationWorker(async ({ env, taskQueue }) => {
      const conv = new ConversationClient({
        client: env.client,
        conversationId: uniqueConversationId('anthropic-bad'),
        taskQueue,
        format: 'anthropic',
      });
      await conv.prepare([
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: 'hi' },
      ]);
      const chatCall = {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{}' } }],
      };
      await assert.rejects(
        conv.record([chatCall]),
        refused(/message 0 of this append: a chat message with 'tool_calls' is 'chat' input/)
      );
      await assert.rejects(
        conv.record([{ role: 'assistant', content: [{ type: 'thinking', thinking: 'hm' }] }]),
        refused(/message 0 of this append: content\[0\] is a thinking block without a signature/)
      );
      await assert.rejects(
        conv.prepare([{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_x', content: 'x' }] }]),
        refused(/message 0 of this append: tool result for call id 'toolu_x', but no earlier call has that id/)
      );
      assert.equal((await conv.context()).messages.length, 2, 'nothing stored');
      // An interrupted call is answered "not run", first in the next user turn.
      await conv.record([
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: {} }] },
      ]);
      const next = await conv.prepare([{ role: 'user', content: 'stop, do something else' }]);
      assert.deepEqual(anthropicProblems(next.messages, next.messages), []);
      assert.equal(next.messages.length, 5);
      assert.match(JSON.stringify(next.messages[3]), /"tool_use_id":"toolu_1".*\[not run\]/);
      await conv.close();
    });
  });
});

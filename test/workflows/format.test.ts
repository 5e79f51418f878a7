// Issue 9, item 3: a conversation's format. A Responses agent whose first items are plain `{role, content}` messages
// was locked into chat (the first append decided) and then refused its first reasoning / function_call item with
// "missing field 'role'". Now a conversation read as chat upgrades to Responses when Responses items arrive (plain
// chat messages are valid Responses input), and a `format` start argument / client option fixes the format up front.
import { strict as assert } from 'node:assert';
import { ConversationClient } from '../../src/client/conversation-client';
import { ConversationUpdateError } from '../../src/client/errors';
import { conversationWorkflowId } from '../../src/contract/definitions';
import { SettingsError } from '../../src/contract/settings';
import { uniqueConversationId, withConversationWorker } from '../support/conversation';

const plain = (role: string, content: string) => ({ role, content });
const reasoning = { type: 'reasoning', summary: [{ type: 'summary_text', text: 'The user wants the weather.' }] };
const fnCall = (id: string) => ({ type: 'function_call', call_id: id, name: 'weather', arguments: '{"city":"Oslo"}' });
const fnOut = (id: string) => ({ type: 'function_call_output', call_id: id, output: '4 degrees, rain' });
const rSay = (text: string) => ({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] });

const refused = (type: string, pattern: RegExp) => (e: unknown) =>
  e instanceof ConversationUpdateError && e.type === type && e.stored === false && pattern.test(e.message);

describe('conversation format', function () {
  this.timeout(120_000);

  it('a Responses agent whose first items are plain messages keeps working: the conversation upgrades', async () => {
    await withConversationWorker(async ({ open, archive }) => {
      const id = uniqueConversationId('format-upgrade');
      const conv = open(id);
      await conv.prepare([plain('system', 'You are a weather bot.'), plain('user', 'Weather in Oslo?')]);
      assert.equal((await conv.state()).format, 'chat', 'plain messages alone read as chat');
      await conv.record([reasoning, fnCall('fc_1')]);
      assert.equal((await conv.state()).format, 'responses', 'Responses items upgrade the conversation');
      const next = await conv.prepare([fnOut('fc_1')]);
      await conv.record([rSay('It is 4 degrees and raining in Oslo.')]);
      const expected = [
        plain('system', 'You are a weather bot.'),
        plain('user', 'Weather in Oslo?'),
        reasoning,
        fnCall('fc_1'),
        fnOut('fc_1'),
      ];
      assert.deepEqual(next.messages, expected, 'the context to send is valid Responses input, unchanged');
      const archived = (await archive.readAll(conversationWorkflowId(id))).map((a) => a.message);
      assert.equal(archived.length, 6, 'every item archived once');
      await conv.close();
    });
  });

  it('does not upgrade a conversation that holds chat-only messages; the refusal names the problem', async () => {
    await withConversationWorker(async ({ open }) => {
      const conv = open(uniqueConversationId('format-chat-only'));
      await conv.prepare([plain('user', 'Weather in Oslo?')]);
      await conv.record([
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'c1', type: 'function', function: { name: 'weather', arguments: '{}' } }],
        },
      ]);
      await conv.prepare([{ role: 'tool', tool_call_id: 'c1', content: '4 degrees' }]);
      await assert.rejects(
        conv.record([reasoning]),
        refused('InvalidAppend', /message 0 of this append: a Responses 'reasoning' item is 'responses' input/)
      );
      assert.equal((await conv.state()).format, 'chat');
      assert.equal((await conv.context()).messages.length, 3, 'nothing stored');
      await conv.close();
    });
  });

  it("format: 'responses' (client option) fixes the format before the first message", async () => {
    await withConversationWorker(async ({ env, taskQueue }) => {
      const conv = new ConversationClient({
        client: env.client,
        conversationId: uniqueConversationId('format-option'),
        taskQueue,
        format: 'responses',
      });
      await conv.prepare([plain('user', 'Weather in Oslo?')]);
      assert.equal((await conv.state()).format, 'responses');
      await assert.rejects(
        conv.record([{ role: 'tool', tool_call_id: 'c1', content: 'x' }]),
        refused('InvalidAppend', /a chat 'tool' message is 'chat' input, but the transcript's format is 'responses'/)
      );
      await conv.record([reasoning, fnCall('fc_1')]);
      assert.equal((await conv.context()).messages.length, 3);
      await conv.close();
    });
  });

  it("format: 'chat' (start argument) is kept: Responses items are refused, not upgraded to", async () => {
    await withConversationWorker(async ({ env, taskQueue }) => {
      const conv = new ConversationClient({
        client: env.client,
        conversationId: uniqueConversationId('format-chat'),
        taskQueue,
        format: 'chat',
      });
      await conv.prepare([plain('user', 'Weather in Oslo?')]);
      await assert.rejects(
        conv.record([reasoning, fnCall('fc_1')]),
        refused(
          'InvalidAppend',
          /a Responses 'reasoning' item is 'responses' input, but the transcript's format is 'chat'/
        )
      );
      assert.equal((await conv.state()).format, 'chat');
      await conv.close();
    });
  });

  it("reads 's0', the typed format's former name, as 'typed' (client option and start argument)", async () => {
    await withConversationWorker(async ({ env, taskQueue }) => {
      const typed = [
        { type: 'instructions', text: 'You are a support bot.' },
        { type: 'user', text: 'Where is order 5000?' },
      ];
      const conv = new ConversationClient({
        client: env.client,
        conversationId: uniqueConversationId('format-s0'),
        taskQueue,
        format: 's0',
      });
      const sent = await conv.prepare(typed);
      assert.deepEqual(sent.messages, typed);
      assert.equal((await conv.state()).format, 'typed');
      await conv.close();
      const id = uniqueConversationId('format-s0-raw');
      await env.client.workflow.start('conversationWorkflow', {
        taskQueue,
        workflowId: conversationWorkflowId(id),
        args: [{ format: 's0' }],
      });
      const raw = new ConversationClient({ client: env.client, conversationId: id, taskQueue });
      assert.equal((await raw.state()).format, 'typed', 'the start argument fixed the format');
      await raw.close();
    });
  });

  it('validates the format: in the client before anything is sent, and in the workflow at start', async () => {
    assert.throws(
      () =>
        new ConversationClient({ client: {} as never, conversationId: 'x', taskQueue: 'q', format: 'xml' as never }),
      (e: unknown) =>
        e instanceof SettingsError && /format must be one of chat, responses, typed, anthropic/.test(e.message)
    );
    await withConversationWorker(async ({ env, taskQueue }) => {
      const handle = await env.client.workflow.start('conversationWorkflow', {
        taskQueue,
        workflowId: conversationWorkflowId(uniqueConversationId('format-bad')),
        args: [{ format: 'xml' }],
      });
      await assert.rejects(handle.result(), (e: unknown) => {
        const cause = (e as { cause?: { type?: string; message?: string } }).cause;
        return (
          cause?.type === 'InvalidStart' &&
          /format must be one of chat, responses, typed, anthropic/.test(cause.message ?? '')
        );
      });
    });
  });
});

import { strict as assert } from 'node:assert';
import { aiSdkAdapter, APPROVAL_REQUEST, type AiSdkMessage } from '../../../src/core/messages/ai-sdk';
import type { Transcript } from '../../../src/core/messages/types';
import { denormalize, normalize, pendingCalls } from '../../../src/core/messages/normalize';
import { detectFormat } from '../../../src/core/messages/detect';
import { answersOf } from '../../../src/core/messages/pair';
import { clipItem } from '../../../src/core/plan/clip-oversized';
import { TranscriptValidationError } from '../../../src/core/messages/validate';
import { aiSdkSession } from '../../support/ai-sdk-transcript';

const refused = (messages: unknown[], pattern: RegExp, index: number) =>
  assert.throws(
    () => normalize(messages, 'ai-sdk'),
    (e: unknown) => e instanceof TranscriptValidationError && e.index === index && pattern.test(e.message)
  );

describe('AI SDK model messages (format ai-sdk)', () => {
  it('refuses a transcript mixing AI SDK messages with another format, and tells its image from an Anthropic one', () => {
    const sdkImage = { role: 'user', content: [{ type: 'image', image: 'https://example.test/a.png' }] };
    const claudeImage = {
      role: 'user',
      content: [{ type: 'image', source: { type: 'url', url: 'https://example.test/a.png' } }],
    };
    assert.equal(detectFormat([sdkImage]), 'ai-sdk');
    assert.equal(detectFormat([claudeImage]), 'anthropic');
    assert.throws(
      () => detectFormat([sdkImage, { role: 'assistant', content: 'ok' }, claudeImage]),
      /message 2: a 'user' message with an Anthropic 'image' block is 'anthropic' input, but message 0 is a 'user' message with an AI SDK 'image' part/
    );
    const toolMessage = {
      role: 'tool',
      content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'ls', output: { type: 'text', value: 'ok' } }],
    };
    assert.throws(
      () => normalize([toolMessage], 'chat'),
      /message 0: a 'tool' message with an AI SDK 'tool-result' part is 'ai-sdk' input, but the transcript's format is 'chat'/
    );
  });

  it('round-trips a realistic session losslessly, providerOptions included, and is detected as ai-sdk', () => {
    const session = aiSdkSession();
    const copy = JSON.parse(JSON.stringify(session)) as unknown[];
    assert.equal(detectFormat(session), 'ai-sdk');
    const back = denormalize(normalize(session));
    assert.deepEqual(back, copy);
    back.forEach((raw, i) => assert.equal(raw, session[i]));
  });

  it('pairs parallel results, approvals and provider-executed calls, and finds the pending approval', () => {
    const t = normalize(aiSdkSession(), 'ai-sdk');
    assert.equal(
      t.items.map((i) => i.role).join(' '),
      'instructions user assistant tool assistant user assistant tool tool assistant user assistant'
    );
    assert.deepEqual(
      answersOf(t.items[3]!).map((a) => [a.itemIndex, a.callIndex, a.name]),
      [
        [2, 0, 'getOrder'],
        [2, 1, 'getPolicy'],
      ]
    );
    assert.deepEqual(
      t.items[4]!.calls,
      [],
      'a provider-executed call answered in its own message pairs with nothing outside'
    );
    assert.deepEqual(
      t.items[6]!.calls.map((c) => [c.id, c.name, c.kind]),
      [
        ['tc-3', 'refund', undefined],
        ['ap-1', 'refund', APPROVAL_REQUEST],
      ]
    );
    assert.deepEqual(
      answersOf(t.items[7]!).map((a) => [a.itemIndex, a.callIndex]),
      [[6, 1]],
      'the approval response answers the request'
    );
    assert.deepEqual(
      answersOf(t.items[8]!).map((a) => [a.itemIndex, a.callIndex]),
      [[6, 0]]
    );
    assert.deepEqual(pendingCalls(t), [
      { itemIndex: 11, callIndex: 0 },
      { itemIndex: 11, callIndex: 1 },
    ]);
    assert.match(t.items[3]!.text, /"total":249/);
    assert.match(t.items[8]!.text, /refund R-77 issued/);
  });

  it('never edits an assistant message with reasoning; other edits keep providerOptions as they were', () => {
    const t = normalize(aiSdkSession(), 'ai-sdk') as Transcript<AiSdkMessage>;
    assert.equal(aiSdkAdapter.withText(t.items[2]!.raw, 'x'), t.items[2]!.raw);
    assert.equal(clipItem(t.items[2]!, 10_000, 10, 'archive:x#2', aiSdkAdapter), undefined);
    const edited = aiSdkAdapter.withText(t.items[4]!.raw, 'short') as unknown as { content: Record<string, unknown>[] };
    const text = edited.content.find((p) => p.type === 'text')!;
    assert.deepEqual(text, { type: 'text', text: 'short', providerOptions: { openai: { itemId: 'msg_0a1' } } });
    const user = aiSdkAdapter.withText(t.items[1]!.raw, 'short');
    assert.equal(user.providerOptions, t.items[1]!.raw.providerOptions);
    const evicted = aiSdkAdapter.withToolOutput(t.items[3]!.raw, '[evicted]') as unknown as {
      content: { output: unknown }[];
    };
    assert.deepEqual(
      evicted.content.map((p) => p.output),
      [
        { type: 'text', value: '[evicted]' },
        { type: 'text', value: '[evicted]' },
      ]
    );
  });

  it('writes the summary as a user message and not-run answers for an abandoned call and approval', () => {
    const summary = aiSdkAdapter.summaryItem('Earlier: refund issued.', { droppedCount: 5, summarizedIds: [] });
    assert.equal(normalize([summary], 'ai-sdk').items[0]!.role, 'summary');
    const session = aiSdkSession();
    const t = normalize(session, 'ai-sdk');
    const answers = t.items[11]!.calls.map((c) => aiSdkAdapter.notRunResult(c));
    assert.deepEqual(pendingCalls(normalize([...session, ...answers], 'ai-sdk')), []);
    assert.deepEqual((answers[1]!.content as unknown[])[0], {
      type: 'tool-approval-response',
      approvalId: 'ap-2',
      approved: false,
      reason: '[not run] The call to closeTicket (ap-2) was not executed, so it has no output.',
    });
  });

  describe('bad input is refused naming the element', () => {
    const user = { role: 'user', content: 'hi' };
    const result = (id: string) => ({
      role: 'tool',
      content: [{ type: 'tool-result', toolCallId: id, toolName: 'f', output: { type: 'text', value: 'v' } }],
    });
    const call = (id: string) => ({
      role: 'assistant',
      content: [{ type: 'tool-call', toolCallId: id, toolName: 'f', input: {} }],
    });
    it('a tool result or approval response with no call', () => {
      refused([user, result('nope')], /message 1: tool result for call id 'nope', but no earlier call has that id/, 1);
      refused(
        [user, { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: 'ap-9', approved: true }] }],
        /message 1: .*'ap-9'.*no earlier call/,
        1
      );
      refused(
        [
          user,
          {
            role: 'assistant',
            content: [{ type: 'tool-result', toolCallId: 'z', toolName: 'f', output: { type: 'text', value: '' } }],
          },
        ],
        /message 1: an assistant tool-result for 'z' answers no tool-call/,
        1
      );
    });
    it('duplicate call ids, and a call answered twice', () => {
      const twice = { role: 'assistant', content: [call('a').content[0], call('a').content[0]] };
      refused([user, twice], /message 1: content\[1\]: two tool calls share the id 'a'/, 1);
      refused([user, call('a'), result('a'), result('a')], /message 3: .*already answered/, 3);
    });
    it('a part of unknown shape inside a known role, a bad output, a bad approval', () => {
      refused(
        [{ role: 'user', content: [{ type: 'tool_invocation', id: 'x' }] }],
        /message 0: content\[0\] is a part of type "tool_invocation", which a 'user' message cannot hold/,
        0
      );
      // A block of another format is refused as that format's input.
      refused(
        [{ role: 'user', content: [{ type: 'tool_use', id: 'x' }] }],
        /message 0: a 'user' message with an Anthropic 'tool_use' block is 'anthropic' input/,
        0
      );
      // A tool message of text parts is chat's shape, refused as such before the adapter reads it.
      const textTool = { role: 'tool', content: [{ type: 'text', text: 'x' }] };
      refused([user, textTool], /message 1: a chat 'tool' message is 'chat' input/, 1);
      assert.throws(
        () => aiSdkAdapter.toItem(textTool, 1),
        /message 1: content\[0\] is a part of type "text", which a 'tool' message cannot hold/
      );
      refused(
        [
          user,
          call('a'),
          { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'a', toolName: 'f', output: 'plain' }] },
        ],
        /message 2: content\[0\]\.output must be one of/,
        2
      );
      refused(
        [user, { role: 'assistant', content: [{ type: 'tool-call', toolName: 'f', input: {} }] }],
        /message 1: missing field 'content\[0\]\.toolCallId'/,
        1
      );
      const stringTool = { role: 'tool', content: 'done' };
      refused([user, stringTool], /message 1: a chat 'tool' message is 'chat' input/, 1);
      assert.throws(() => aiSdkAdapter.toItem(stringTool, 1), /message 1: field 'content' must be an array of parts/);
      refused(
        [{ role: 'system', content: [{ type: 'text', text: 'x' }] }],
        /message 0: field 'content' of a system message must be a string/,
        0
      );
      refused([user, { role: 'developer', content: 'x' }], /message 1: unknown role 'developer'/, 1);
    });
  });
});

import { strict as assert } from 'node:assert';
import { archiveWhere, lightenMessage } from '../../../src/core/fold/lighten';
import { lightenedSeqs } from '../../../src/core/fold/originals';
import { isReferenceOf, referenceStub } from '../../../src/core/fold/reference-stub';
import { normalize } from '../../../src/core/messages/normalize';

const long = (label: string) => `${label}: ${'lorem ipsum dolor sit amet '.repeat(40)}`;

/** A chat agent step: instructions, a user turn, a tool call with long arguments, its long result, a reply. */
const chat = [
  { role: 'system', content: long('system') },
  { role: 'user', content: long('user') },
  {
    role: 'assistant',
    content: null,
    tool_calls: [
      {
        id: 'call_5f1b8d0c7e2a4b6f9d3c1a0e',
        type: 'function',
        function: { name: 'read_file', arguments: long('args') },
      },
    ],
  },
  { role: 'tool', tool_call_id: 'call_5f1b8d0c7e2a4b6f9d3c1a0e', content: long('result') },
  { role: 'assistant', content: [{ type: 'text', text: long('reply') }] },
];

describe('reference stubs (messages held by reference)', () => {
  const where = (seq: number) => archiveWhere('conv-1', seq);
  const stubs = chat.map((m, seq) => referenceStub(m, where(seq)));

  it('keep what planning reads: roles, turns, tool calls and the results they pair with', () => {
    const strip = (t: ReturnType<typeof normalize>) =>
      t.items.map((i) => ({
        role: i.role,
        turnStart: i.turnStart,
        calls: i.calls.map((c) => [c.id, c.name]),
        answers: i.answers,
      }));
    assert.deepEqual(strip(normalize(stubs, 'chat')), strip(normalize(chat, 'chat')));
  });

  it('are small and name their archived original by number', () => {
    const bytes = (v: unknown) => JSON.stringify(v).length;
    assert.ok(bytes(stubs) * 4 < bytes(chat), `${bytes(stubs)} of ${bytes(chat)} bytes`);
    stubs.forEach((stub, seq) => assert.deepEqual(lightenedSeqs(stub, 'conv-1'), [seq]));
  });

  it('are recognised from their original only (a look-alike with other text is not)', () => {
    chat.forEach((m, seq) => assert.ok(isReferenceOf(stubs[seq], m, where(seq)), `message ${seq}`));
    const lookAlike = { role: 'user', content: long('someone else') };
    assert.ok(!isReferenceOf(stubs[1], lookAlike, where(1)));
    assert.ok(!isReferenceOf(stubs[1], chat[1], where(2)), 'another number');
  });

  it('of a lightened message are the stub of its original', () => {
    const image = {
      role: 'user',
      content: [
        { type: 'text', text: long('caption') },
        { type: 'image_url', image_url: { url: `data:image/png;base64,${'A'.repeat(10_000)}` } },
      ],
    };
    assert.deepEqual(referenceStub(lightenMessage(image, where(7)), where(7)), referenceStub(image, where(7)));
  });

  it('keep short strings and non-string values as they are', () => {
    const m = { role: 'user', content: 'short', n: 3, flag: true, none: null };
    assert.deepEqual(referenceStub(m, where(0)), m);
  });
});

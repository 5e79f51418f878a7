import { strict as assert } from 'node:assert';
import { anthropicAdapter } from '../../../src/core/messages/anthropic';
import { anthropicRequest } from '../../../src/core/messages/anthropic-request';
import { abandonedCallResults } from '../../../src/core/messages/abandoned-calls';
import { detectFormat } from '../../../src/core/messages/detect';
import { denormalize, extendTranscript, normalize, pendingCalls } from '../../../src/core/messages/normalize';
import { answersOf } from '../../../src/core/messages/pair';
import { prepareForSend } from '../../../src/core/messages/send';
import { safeCuts } from '../../../src/core/plan/safe-cut';
import { TranscriptValidationError } from '../../../src/core/messages/validate';
import { anthropicSessions } from '../../support/corpus';
import { claudeSession } from '../../support/claude-sessions';
import { anthropicProblems } from '../../support/anthropic-rules';

const user = (content: unknown) => ({ role: 'user', content });
const assistant = (content: unknown) => ({ role: 'assistant', content });
const toolUse = (id: string, name = 'Bash') => ({ type: 'tool_use', id, name, input: { command: 'ls' } });
const toolResult = (id: string, content: unknown = 'out') => ({ type: 'tool_result', tool_use_id: id, content });
const thinking = { type: 'thinking', thinking: 'Let me look.', signature: 'EqQBCgIYAhIM' };

/** Every block type of the Messages API, in the turn that may hold it. */
const everyBlock = [
  { role: 'system', content: [{ type: 'text', text: 'You are terse.', cache_control: { type: 'ephemeral' } }] },
  user([
    { type: 'text', text: 'Look at these.' },
    { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
    { type: 'image', source: { type: 'url', url: 'https://example.com/a.png' } },
    {
      type: 'document',
      source: { type: 'text', media_type: 'text/plain', data: 'notes' },
      citations: { enabled: true },
    },
    { type: 'search_result', source: 'https://d.example', title: 'd', content: [{ type: 'text', text: 'x' }] },
    { type: 'container_upload', file_id: 'file_1' },
  ]),
  assistant([
    thinking,
    { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix' },
    {
      type: 'text',
      text: 'Searching.',
      citations: [
        { type: 'char_location', cited_text: 'n', document_index: 0, start_char_index: 0, end_char_index: 1 },
      ],
    },
    { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'q' } },
    { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: [] },
    { type: 'server_tool_use', id: 'srvtoolu_2', name: 'web_fetch', input: { url: 'https://e.x' } },
    { type: 'web_fetch_tool_result', tool_use_id: 'srvtoolu_2', content: {} },
    { type: 'server_tool_use', id: 'srvtoolu_3', name: 'code_execution', input: { code: '1' } },
    { type: 'code_execution_tool_result', tool_use_id: 'srvtoolu_3', content: {} },
    { type: 'mcp_tool_use', id: 'mcptoolu_1', name: 'crm', server_name: 's', input: {} },
    { type: 'mcp_tool_result', tool_use_id: 'mcptoolu_1', content: [{ type: 'text', text: 'r' }] },
    { type: 'compaction', encrypted_content: 'opaque' },
    { type: 'brand_new_block', anything: [1, 2] },
    toolUse('toolu_1'),
    toolUse('toolu_2', 'Read'),
  ]),
  user([
    toolResult('toolu_2', [
      { type: 'text', text: 'file body' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
    ]),
    { ...toolResult('toolu_1', 'exit 1'), is_error: true, cache_control: { type: 'ephemeral' } },
    { type: 'text', text: 'and?' },
  ]),
  assistant('Done.'),
];

function refused(messages: unknown[], index: number, pattern: RegExp): void {
  assert.throws(
    () => normalize(messages, 'anthropic'),
    (err: unknown) => err instanceof TranscriptValidationError && err.index === index && pattern.test(err.message),
    `expected message ${index} refused with ${pattern}`
  );
}

describe('anthropic format', () => {
  it('is detected from its own blocks (a Claude transcript is never read as chat)', () => {
    for (const s of anthropicSessions()) assert.equal(detectFormat(s.messages), 'anthropic', s.name);
    assert.equal(detectFormat(everyBlock), 'anthropic');
    assert.equal(normalize(anthropicSessions()[0]!.messages).format, 'anthropic');
  });

  it('refuses a transcript mixing formats, naming the message and the shape found', () => {
    const mixed = [
      user([{ type: 'text', text: 'hi' }]),
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{}' } }],
      },
      assistant([toolUse('toolu_1')]),
    ];
    assert.throws(
      () => detectFormat(mixed),
      /message 2: a 'assistant' message with an Anthropic 'tool_use' block is 'anthropic' input, but message 1 is a chat message with 'tool_calls'/
    );
    // Given the format, an element of another format is refused rather than misread.
    assert.throws(
      () => normalize(mixed.slice(2), 'chat'),
      /message 0: .*Anthropic 'tool_use' block is 'anthropic' input, but the transcript's format is 'chat'/
    );
    assert.throws(
      () => normalize(mixed.slice(0, 2), 'anthropic'),
      /message 1: a chat message with 'tool_calls' is 'chat' input/
    );
  });

  it('reads every block type, pairs parallel calls with the results of the next user turn, and round-trips', () => {
    const before = JSON.stringify(everyBlock);
    const t = normalize(everyBlock, 'anthropic');
    assert.deepEqual(
      t.items.map((i) => i.role),
      ['instructions', 'user', 'assistant', 'tool', 'assistant']
    );
    assert.deepEqual(
      t.items[2]!.calls.map((c) => c.id),
      ['toolu_1', 'toolu_2'],
      'server and MCP calls are not open calls'
    );
    assert.deepEqual(
      answersOf(t.items[3]!).map((a) => [a.callId, a.itemIndex, a.callIndex]),
      [
        ['toolu_2', 2, 1],
        ['toolu_1', 2, 0],
      ]
    );
    assert.deepEqual(pendingCalls(t), []);
    assert.equal(t.items[3]!.turnStart, false);
    assert.equal(t.items[1]!.turnStart, true);
    const back = denormalize(t);
    back.forEach((raw, i) => assert.equal(raw, everyBlock[i], 'kept raws are the caller objects'));
    assert.equal(JSON.stringify(everyBlock), before, 'input not mutated');
  });

  it('round-trips the five real Claude Code sessions, every call paired', () => {
    for (const s of anthropicSessions()) {
      const before = JSON.stringify(s.messages);
      const t = normalize(s.messages);
      assert.deepEqual(denormalize(t), s.messages);
      assert.equal(JSON.stringify(denormalize(t)), before);
      assert.deepEqual(pendingCalls(t), [], s.name);
      const calls = t.items.reduce((n, it) => n + it.calls.length, 0);
      const answers = t.items.reduce((n, it) => n + answersOf(it).length, 0);
      assert.ok(calls > 50 && calls === answers, `${s.name}: ${calls} calls, ${answers} answers`);
    }
  });

  it('extends a transcript with the same pairing as reading it whole', () => {
    const s = anthropicSessions()[1]!.messages;
    const whole = normalize(s, 'anthropic');
    let t = normalize(s.slice(0, 7), 'anthropic');
    for (let i = 7; i < s.length; i += 5) t = extendTranscript(t, s.slice(i, i + 5));
    assert.deepEqual(t.items.map(answersOf), whole.items.map(answersOf));
  });

  describe('refuses bad input with the message index', () => {
    it('a tool_result with no tool_use, or answering a turn that is not the one before', () => {
      refused([user('go'), assistant('hi'), user([toolResult('toolu_9')])], 2, /no earlier call has that id/);
      refused(
        [
          user('go'),
          assistant([toolUse('toolu_1')]),
          user([toolResult('toolu_1')]),
          assistant([toolUse('toolu_2')]),
          user([toolResult('toolu_2'), toolResult('toolu_1')]),
        ],
        4,
        /'toolu_1'.*already answered/
      );
    });
    it('accepts a result that comes a turn late (two real sessions hold one), and holds its turns together', () => {
      const late = [
        user('go'),
        assistant([toolUse('toolu_1'), toolUse('toolu_2')]),
        user([toolResult('toolu_1')]),
        assistant([toolUse('toolu_3')]),
        user([toolResult('toolu_2'), toolResult('toolu_3')]),
        user('next'),
      ];
      const t = normalize(late, 'anthropic');
      assert.deepEqual(
        answersOf(t.items[4]!).map((a) => a.itemIndex),
        [1, 3]
      );
      assert.deepEqual(safeCuts(t.items), [true, true, false, false, false, true, true]);
    });
    it('duplicate ids', () => {
      refused([user('go'), assistant([toolUse('toolu_1'), toolUse('toolu_1')])], 1, /repeats the call id 'toolu_1'/);
      refused(
        [user('go'), assistant([toolUse('toolu_1')]), user([toolResult('toolu_1'), toolResult('toolu_1')])],
        2,
        /answers 'toolu_1' a second time/
      );
    });
    it('a thinking block without signature, a known block of the wrong shape, a block in the wrong role', () => {
      refused(
        [user('go'), assistant([{ type: 'thinking', thinking: 'hm' }])],
        1,
        /content\[0\] is a thinking block without a signature/
      );
      refused(
        [user('go'), assistant([{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: 'ls' }])],
        1,
        /content\[0\] \(tool_use\) needs object field 'input', found string/
      );
      refused([user([{ type: 'text', text: 3 }])], 0, /content\[0\] \(text\) needs string field 'text', found number/);
      refused([user([{ type: 'image', data: 'x' }])], 0, /content\[0\] \(image\) needs object field 'source'/);
      refused([user([{ text: 'no type' }])], 0, /content\[0\] has no string 'type'/);
      refused([user([toolUse('toolu_1')])], 0, /'tool_use' block, which only an assistant turn holds/);
      refused(
        [user('go'), assistant([toolUse('toolu_1')]), user([{ type: 'text', text: 'x' }, toolResult('toolu_1')])],
        2,
        /tool_result blocks must come first/
      );
      refused(
        [user('go'), assistant([{ type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: [] }])],
        1,
        /no earlier server or MCP call of this turn/
      );
      refused([{ role: 'model', content: 'x' }], 0, /unknown role 'model'/);
      refused([user(7)], 0, /field 'content' must be a string or an array of content blocks, found number/);
    });
  });

  it('never edits a signed turn; replaces tool outputs and text elsewhere', () => {
    const signed = assistant([thinking, { type: 'text', text: 'long text' }]);
    assert.equal(anthropicAdapter.withText(signed, 'clipped'), signed);
    assert.deepEqual(
      anthropicAdapter.withText(assistant([{ type: 'text', text: 'a' }, toolUse('t')]), 'b'),
      assistant([{ type: 'text', text: 'b' }, toolUse('t')])
    );
    assert.deepEqual(
      anthropicAdapter.withToolOutput(user([toolResult('t', 'big'), { type: 'text', text: 'x' }]), 'p'),
      user([toolResult('t', 'p'), { type: 'text', text: 'x' }])
    );
  });

  it('moves the system element(s) into the system parameter when sending', () => {
    const turns = [user('hi'), assistant('hello')];
    assert.deepEqual(anthropicRequest([{ role: 'system', content: 'Be terse.' }, ...turns]), {
      system: 'Be terse.',
      messages: turns,
    });
    assert.deepEqual(anthropicRequest(turns), { messages: turns });
    const cached = { type: 'text', text: 'Rules', cache_control: { type: 'ephemeral' } };
    assert.deepEqual(
      anthropicRequest([{ role: 'system', content: 'Be terse.' }, { role: 'system', content: [cached] }, ...turns]),
      {
        system: [{ type: 'text', text: 'Be terse.' }, cached],
        messages: turns,
      }
    );
  });

  it('writes the summary as a user text block, read back as a summary', () => {
    const s = anthropicAdapter.summaryItem('what happened', { droppedCount: 4, summarizedIds: [] });
    assert.equal(s.role, 'user');
    assert.equal((s.content as { type: string }[])[0]!.type, 'text');
    assert.equal(normalize([s], 'anthropic').items[0]!.role, 'summary');
  });

  it('answers an abandoned call "not run" first in the next user turn, which the API accepts', () => {
    const messages = [
      user('go'),
      assistant([toolUse('toolu_1'), toolUse('toolu_2')]),
      user([toolResult('toolu_1'), { type: 'text', text: '[Request interrupted by user]' }]),
      assistant('Stopped.'),
    ];
    assert.ok(
      anthropicProblems(messages, messages).some((p) => /toolu_2/.test(p)),
      'the validator sees the gap'
    );
    const inserts = abandonedCallResults(messages, 'anthropic');
    assert.deepEqual(
      inserts.map((r) => r.at),
      [2]
    );
    const fixed = [...messages.slice(0, 2), ...inserts.map((r) => r.raw), ...messages.slice(2)];
    assert.deepEqual(anthropicProblems(fixed, fixed), []);
    assert.deepEqual(pendingCalls(normalize(fixed, 'anthropic')), []);
    // Send-time synthesis writes the same shape, and the last turn's running calls stay pending in the store.
    assert.deepEqual(
      anthropicProblems(prepareForSend(messages, { format: 'anthropic', unanswered: 'synthesize' }), messages),
      []
    );
    const running = [user('go'), assistant([toolUse('toolu_1')])];
    assert.deepEqual(abandonedCallResults(running, 'anthropic'), []);
  });

  it('generated sessions read, and with their abandoned calls answered pass the API rules', () => {
    let interrupted = 0;
    for (let seed = 1; seed <= 200; seed++) {
      const messages = claudeSession(seed);
      const inserts = abandonedCallResults(messages, 'anthropic');
      if (inserts.length > 0) interrupted++;
      const fixed: unknown[] = [...messages];
      for (const r of [...inserts].reverse()) fixed.splice(r.at, 0, r.raw);
      assert.equal(normalize(fixed).format, 'anthropic');
      assert.deepEqual(anthropicProblems(fixed, fixed), [], `seed ${seed}`);
    }
    assert.ok(interrupted >= 10, `only ${interrupted} of 200 sessions had an interrupted call`);
  });
});

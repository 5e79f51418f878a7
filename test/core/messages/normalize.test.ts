import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { referenceStub } from '../../../src/core/fold/reference-stub';
import {
  denormalize,
  extendTranscript,
  normalize,
  pendingCalls,
  replaceItems,
} from '../../../src/core/messages/normalize';
import { unansweredCalls } from '../../../src/core/messages/pair';
import { detectFormat } from '../../../src/core/messages/detect';
import { TranscriptValidationError } from '../../../src/core/messages/validate';
import { corpusConversations } from '../../support/corpus';
import { pairingMessages, pairingSteps } from '../../support/paired-transcripts';

const call = (id: string, name = 'f', args = '{}') => ({ id, type: 'function', function: { name, arguments: args } });

describe('normalize', () => {
  describe('corpus round trip', () => {
    for (const conv of corpusConversations()) {
      it(`${conv.name}: normalise → denormalise is the identity`, () => {
        const before = JSON.stringify(conv.messages);
        const t = normalize(conv.messages);
        assert.equal(t.format, 'chat');
        assert.equal(t.items.length, conv.messages.length);
        const back = denormalize(t);
        assert.deepEqual(back, conv.messages);
        back.forEach((raw, i) => assert.equal(raw, conv.messages[i], `raw ${i} is the caller's own object`));
        assert.equal(JSON.stringify(conv.messages), before, 'input not mutated');
        // Every corpus call is answered exactly once.
        assert.deepEqual(pendingCalls(t), []);
        const tools = t.items.filter((it) => it.role === 'tool');
        assert.ok(tools.every((it) => it.answers !== undefined));
      });
    }
  });

  it('pairs a reused call id with the nearest earlier unanswered call (tau-bench reuses ids)', () => {
    const t = normalize([
      { role: 'user', content: 'go' },
      { role: 'assistant', content: null, tool_calls: [call('c1', 'a')] },
      { role: 'tool', tool_call_id: 'c1', content: 'first' },
      { role: 'assistant', content: null, tool_calls: [call('c1', 'b')] },
      { role: 'tool', tool_call_id: 'c1', content: 'second' },
    ]);
    assert.deepEqual(t.items[2]!.answers, { callId: 'c1', itemIndex: 1, callIndex: 0, name: 'a' });
    assert.deepEqual(t.items[4]!.answers, { callId: 'c1', itemIndex: 3, callIndex: 0, name: 'b' });
  });

  it('pairs out-of-order results of parallel calls by id within the call group', () => {
    const t = normalize([
      { role: 'user', content: 'go' },
      { role: 'assistant', content: null, tool_calls: [call('a'), call('b'), call('c')] },
      { role: 'tool', tool_call_id: 'c', content: '3' },
      { role: 'tool', tool_call_id: 'a', content: '1' },
    ]);
    assert.equal(t.items[2]!.answers!.callIndex, 2);
    assert.equal(t.items[3]!.answers!.callIndex, 0);
    assert.deepEqual(pendingCalls(t), [{ itemIndex: 1, callIndex: 1 }]);
  });

  it('marks real user turns, not summaries or tool results', () => {
    const t = normalize([
      { role: 'system', content: 's' },
      { role: 'user', content: '[Summary of the earlier conversation: 3 earlier item(s) folded]\n\nx' },
      { role: 'user', content: [{ type: 'text', text: 'hello' }] },
      { role: 'assistant', content: null, tool_calls: [call('a')] },
      { role: 'tool', tool_call_id: 'a', content: 'out' },
    ]);
    assert.deepEqual(
      t.items.map((i) => [i.role, i.turnStart]),
      [
        ['instructions', false],
        ['summary', false],
        ['user', true],
        ['assistant', false],
        ['tool', false],
      ]
    );
    assert.equal(t.items[2]!.text, 'hello');
  });

  describe('validation errors name the index and the problem', () => {
    const cases: [string, unknown[], number, string][] = [
      ['non-object element', [{ role: 'user', content: 'x' }, 'oops'], 1, 'not-object'],
      ['missing role', [{ content: 'x' }], 0, 'missing-role'],
      ['unknown role', [{ role: 'robot', content: 'x' }], 0, 'unknown-role'],
      ['role of the wrong type', [{ role: 7, content: 'x' }], 0, 'wrong-type'],
      ['content of the wrong type', [{ role: 'user', content: 5 }], 0, 'wrong-type'],
      [
        'tool result whose call id is unknown',
        [
          { role: 'user', content: 'x' },
          { role: 'tool', tool_call_id: 'z', content: '' },
        ],
        1,
        'unknown-call',
      ],
      [
        'call answered twice',
        [
          { role: 'assistant', content: null, tool_calls: [call('a')] },
          { role: 'tool', tool_call_id: 'a', content: '1' },
          { role: 'tool', tool_call_id: 'a', content: '2' },
        ],
        2,
        'answered-twice',
      ],
      [
        'non-string arguments',
        [
          {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 'a', type: 'function', function: { name: 'f', arguments: { x: 1 } } }],
          },
        ],
        0,
        'arguments-not-string',
      ],
      ['tool_calls not an array', [{ role: 'assistant', content: null, tool_calls: {} }], 0, 'wrong-type'],
      ['tool message without tool_call_id', [{ role: 'tool', content: 'x' }], 0, 'wrong-type'],
    ];
    for (const [name, messages, index, kind] of cases) {
      it(name, () => {
        assert.throws(
          () => normalize(messages, 'chat'),
          (err: unknown) => {
            assert.ok(err instanceof TranscriptValidationError);
            assert.equal(err.index, index);
            assert.equal(err.kind, kind);
            assert.match(err.message, new RegExp(`^message ${index}: `));
            assert.ok(err.message.includes(err.problem));
            return true;
          }
        );
      });
    }
  });

  describe('detectFormat', () => {
    it('reads chat, responses and s0 from their distinctive elements', () => {
      assert.equal(
        detectFormat([
          { role: 'user', content: 'x' },
          { role: 'tool', tool_call_id: 'a', content: '' },
        ]),
        'chat'
      );
      assert.equal(
        detectFormat([
          { role: 'user', content: 'x' },
          { type: 'function_call', call_id: 'a', name: 'f', arguments: '{}' },
        ]),
        'responses'
      );
      assert.equal(detectFormat([{ role: 'user', content: [{ type: 'input_text', text: 'x' }] }]), 'responses');
      assert.equal(detectFormat([{ type: 'user', text: 'x' }]), 'typed');
      assert.equal(detectFormat([{ type: 'reasoning', text: 'x' }]), 'typed');
      assert.equal(detectFormat([{ type: 'reasoning', summary: [] }]), 'responses');
    });
    it('reads an ambiguous or empty transcript as chat', () => {
      assert.equal(detectFormat([]), 'chat');
      assert.equal(detectFormat([{ role: 'user', content: 'x' }]), 'chat');
    });
  });
});

describe('extendTranscript', () => {
  const cut = (n: number, parts: number): number[] =>
    Array.from({ length: parts }, (_, k) => Math.floor((n * k) / parts));

  for (const conv of corpusConversations()) {
    it(`${conv.name}: extending message by message and in chunks equals normalising the whole`, () => {
      const whole = normalize(conv.messages, 'chat');
      let t = normalize([], 'chat');
      for (const m of conv.messages) t = extendTranscript(t, [m]);
      assert.deepEqual(t, whole);
      const bounds = [...cut(conv.messages.length, 7), conv.messages.length];
      t = normalize(conv.messages.slice(0, bounds[1]), 'chat');
      for (let k = 1; k + 1 < bounds.length; k++)
        t = extendTranscript(t, conv.messages.slice(bounds[k], bounds[k + 1]));
      assert.deepEqual(t, whole);
      t.items.forEach((item, i) => assert.equal(item.raw, conv.messages[i], `raw ${i} is the caller's own object`));
    });
  }

  it('throws what normalize throws, at the same index, and leaves the base as it was', () => {
    const base = normalize(
      [
        { role: 'user', content: 'go' },
        { role: 'assistant', content: null, tool_calls: [call('a')] },
        { role: 'tool', tool_call_id: 'a', content: 'done' },
      ],
      'chat'
    );
    const copy = structuredClone(base);
    for (const more of [
      [{ role: 'tool', tool_call_id: 'a', content: 'again' }],
      [
        { role: 'user', content: 'ok' },
        { role: 'tool', tool_call_id: 'zz', content: 'x' },
      ],
      [{ role: 'nobody' }],
    ]) {
      const raws = [...base.items.map((i) => i.raw), ...more];
      const expected = (() => {
        try {
          normalize(raws, 'chat');
        } catch (err) {
          return err as TranscriptValidationError;
        }
        assert.fail('normalize accepts it');
      })();
      assert.throws(
        () => extendTranscript(base, more),
        (err: unknown) =>
          err instanceof TranscriptValidationError && err.index === expected.index && err.message === expected.message
      );
      assert.deepEqual(base, copy);
    }
  });

  it('pairs a new result with an earlier call', () => {
    const base = normalize([{ role: 'assistant', content: null, tool_calls: [call('a', 'read')] }], 'chat');
    const t = extendTranscript(base, [{ role: 'tool', tool_call_id: 'a', content: 'text' }]);
    assert.deepEqual(t.items[1]!.answers, { callId: 'a', itemIndex: 0, callIndex: 0, name: 'read' });
    assert.equal(base.items.length, 1);
  });
});

describe('replaceItems', () => {
  for (const format of ['chat', 'anthropic'] as const) {
    it(`${format}: reading only the replaced messages gives what normalising them all gives (property)`, () => {
      fc.assert(
        fc.property(
          pairingSteps(),
          fc.array(fc.tuple(fc.nat(), fc.nat(), fc.boolean()), { maxLength: 6 }),
          (steps, picks) => {
            const messages = pairingMessages(steps, format);
            let base;
            try {
              base = extendTranscript(normalize([], format), messages);
            } catch {
              return; // a stored context always reads
            }
            if (messages.length === 0) return;
            // Each pick replaces a message by its reference stub, or by another message (ids may then differ).
            const replaced = new Map<number, unknown>();
            for (const [at, other, stub] of picks) {
              const index = at % messages.length;
              replaced.set(
                index,
                stub ? referenceStub(messages[index], `seq ${index}`) : messages[other % messages.length]
              );
            }
            const raws = messages.map((m, i) => (replaced.has(i) ? replaced.get(i) : m));
            const got = replaceItems(
              base,
              [...replaced].map(([index, raw]) => ({ index, raw }))
            );
            if (picks.every(([, , stub]) => stub)) assert.ok(got, 'a stub keeps every id');
            if (!got) return;
            const whole = normalize(raws, format, { stored: true });
            assert.deepEqual(got, whole);
            assert.deepEqual(unansweredCalls(got.items), unansweredCalls(whole.items));
          }
        ),
        { numRuns: 500 }
      );
    });
  }
});

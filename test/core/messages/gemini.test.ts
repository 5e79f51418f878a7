import { strict as assert } from 'node:assert';
import { geminiAdapter, isSignedGeminiTurn, toGeminiRequest } from '../../../src/core/messages/gemini';
import { denormalize, normalize, pendingCalls } from '../../../src/core/messages/normalize';
import { detectFormat } from '../../../src/core/messages/detect';
import { answersOf } from '../../../src/core/messages/pair';
import { clipItem } from '../../../src/core/plan/clip-oversized';
import { TranscriptValidationError } from '../../../src/core/messages/validate';
import { geminiSession, SIGNATURE_A } from '../../support/gemini-transcript';

const refused = (messages: unknown[], pattern: RegExp, index: number) =>
  assert.throws(
    () => normalize(messages, 'gemini'),
    (e: unknown) => e instanceof TranscriptValidationError && e.index === index && pattern.test(e.message)
  );

describe('Gemini contents (format gemini)', () => {
  it('round-trips a realistic session losslessly and is detected as gemini', () => {
    const session = geminiSession();
    const copy = JSON.parse(JSON.stringify(session)) as unknown[];
    assert.equal(detectFormat(session), 'gemini');
    const t = normalize(session);
    assert.equal(t.format, 'gemini');
    const back = denormalize(t);
    assert.deepEqual(back, copy);
    back.forEach((raw, i) => assert.equal(raw, session[i], `element ${i} is the caller's own object`));
  });

  it('refuses a transcript mixing Gemini contents with another format, naming the message', () => {
    const mixed = [
      { role: 'user', content: 'plain, votes for no format' },
      { role: 'model', parts: [{ functionCall: { id: 'g1', name: 'ls', args: {} } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'g1', content: 'ok' }] },
    ];
    assert.throws(
      () => detectFormat(mixed),
      /message 2: a 'user' message with an Anthropic 'tool_result' block is 'anthropic' input, but message 1 is a Gemini 'model' content/
    );
    assert.throws(
      () => normalize([{ role: 'user', parts: [{ text: 'hi' }] }], 'chat'),
      /message 0: a 'user' content with a Gemini text part is 'gemini' input, but the transcript's format is 'chat'/
    );
  });

  it('reads roles, pairs parallel calls by id and id-less calls by name and order, and finds the pending call', () => {
    const t = normalize(geminiSession(), 'gemini');
    assert.equal(
      t.items.map((i) => i.role).join(' '),
      'instructions user assistant tool assistant user assistant user assistant tool assistant user assistant'
    );
    assert.deepEqual(
      answersOf(t.items[3]!).map((a) => [a.itemIndex, a.callIndex, a.name]),
      [
        [2, 0, 'search_manifests'],
        [2, 1, 'list_services'],
      ]
    );
    assert.deepEqual(
      answersOf(t.items[9]!).map((a) => [a.itemIndex, a.callIndex]),
      [
        [8, 0],
        [8, 1],
      ]
    );
    assert.equal(t.items[8]!.calls[1]!.arguments, '{"path":"auth/VERSION"}');
    assert.deepEqual(pendingCalls(t), [{ itemIndex: 12, callIndex: 0 }]);
    assert.equal(t.items[3]!.turnStart, false, 'a turn of function responses is not a user turn start');
    assert.equal(t.items[2]!.text, '', 'thought text is not prose');
    assert.match(t.items[0]!.text, /release engineer/);
  });

  it('never edits a model turn with a thought signature, and clipping leaves it alone', () => {
    const t = normalize(geminiSession(), 'gemini');
    const signed = t.items[2]!;
    assert.ok(isSignedGeminiTurn(signed.raw as Record<string, unknown>));
    assert.equal(geminiAdapter.withText(signed.raw as never, 'shorter'), signed.raw);
    assert.equal(clipItem(signed, 10_000, 10, 'archive:x#2', geminiAdapter), undefined);
    const plain = t.items[4]!;
    const clipped = geminiAdapter.withText(plain.raw as never, 'short');
    assert.deepEqual(clipped, { role: 'model', parts: [{ text: 'short' }] });
    assert.match(JSON.stringify(signed.raw), new RegExp(SIGNATURE_A.replace(/[+/=]/g, '.')));
  });

  it('replaces tool output in every function response, keeping ids and names', () => {
    const t = normalize(geminiSession(), 'gemini');
    const out = geminiAdapter.withToolOutput(t.items[3]!.raw as never, '[evicted]');
    assert.deepEqual(out.parts, [
      { functionResponse: { id: 'call-1', name: 'search_manifests', response: { output: '[evicted]' } } },
      { functionResponse: { id: 'call-2', name: 'list_services', response: { output: '[evicted]' } } },
    ]);
  });

  it('writes the summary as a user turn with one text part and a not-run result that pairs', () => {
    const summary = geminiAdapter.summaryItem('Earlier: billing and auth pin libssl 1.1.', {
      droppedCount: 4,
      summarizedIds: [],
    });
    assert.deepEqual(Object.keys(summary), ['role', 'parts']);
    assert.equal(summary.role, 'user');
    assert.equal(summary.parts.length, 1);
    assert.equal(normalize([summary], 'gemini').items[0]!.role, 'summary');
    const session = geminiSession();
    const t = normalize(session, 'gemini');
    const notRun = geminiAdapter.notRunResult(t.items[12]!.calls[0]!);
    const t2 = normalize([...session, notRun], 'gemini');
    assert.deepEqual(pendingCalls(t2), []);
    const idless = geminiAdapter.notRunResult(t.items[8]!.calls[0]!);
    assert.equal(
      (idless.parts[0] as { functionResponse: { id?: string } }).functionResponse.id,
      undefined,
      'no made-up id is sent'
    );
  });

  it('toGeminiRequest moves the system element to systemInstruction and joins adjacent user turns', () => {
    const summary = geminiAdapter.summaryItem('s', { droppedCount: 3, summarizedIds: [] });
    const context = [
      geminiSession()[0],
      summary,
      { role: 'user', parts: [{ text: 'next' }] },
      { role: 'model', parts: [{ text: 'ok' }] },
    ];
    const req = toGeminiRequest(context);
    assert.deepEqual(req.systemInstruction, {
      parts: [{ text: 'You are a release engineer. Use the tools; never guess versions.' }],
    });
    assert.equal(req.contents.length, 2);
    assert.deepEqual((req.contents[0] as { parts: unknown[] }).parts, [...summary.parts, { text: 'next' }]);
    assert.equal(req.contents[1], context[3], 'model turns are passed on as they are');
  });

  describe('bad input is refused naming the element', () => {
    const user = { role: 'user', parts: [{ text: 'hi' }] };
    it('a function response with no call', () => {
      refused(
        [user, { role: 'user', parts: [{ functionResponse: { id: 'x', name: 'f', response: {} } }] }],
        /message 1: .*call id 'x'.*no earlier call/,
        1
      );
      refused(
        [user, { role: 'user', parts: [{ functionResponse: { name: 'f', response: {} } }] }],
        /message 1: .*no earlier call/,
        1
      );
    });
    it('duplicate call ids in a turn, and a call answered twice', () => {
      const twice = {
        role: 'model',
        parts: [{ functionCall: { id: 'a', name: 'f' } }, { functionCall: { id: 'a', name: 'g' } }],
      };
      refused([user, twice], /message 1: parts\[1\]\.functionCall: two calls in this turn share the id 'a'/, 1);
      const call = { role: 'model', parts: [{ functionCall: { id: 'a', name: 'f' } }] };
      const answer = { role: 'user', parts: [{ functionResponse: { id: 'a', name: 'f', response: {} } }] };
      refused([user, call, answer, answer], /message 3: .*already answered/, 3);
    });
    it('a part of unknown shape, two data fields, or a part the role cannot hold', () => {
      refused(
        [user, { role: 'model', parts: [{ toolUse: { name: 'f' } }] }],
        /message 1: parts\[0\] has an unknown shape \(fields: toolUse\)/,
        1
      );
      refused(
        [{ role: 'user', parts: [{ text: 'a', inlineData: { mimeType: 'image/png', data: '' } }] }],
        /message 0: parts\[0\] has an unknown shape/,
        0
      );
      refused(
        [{ role: 'user', parts: [{ functionCall: { name: 'f' } }] }],
        /message 0: parts\[0\] is a functionCall part, which a 'user' content cannot hold/,
        0
      );
      refused(
        [{ role: 'system', parts: [{ inlineData: { mimeType: 'image/png', data: '' } }] }],
        /message 0: .*'system' content cannot hold/,
        0
      );
      refused([user, { role: 'model', parts: [] }], /message 1: field 'parts' must be a non-empty array/, 1);
      refused([user, { role: 'assistant', parts: [{ text: 'x' }] }], /message 1: unknown role 'assistant'/, 1);
      refused(
        [user, { role: 'model', parts: [{ functionCall: { args: {} } }] }],
        /message 1: missing field 'parts\[0\]\.functionCall\.name'/,
        1
      );
    });
  });
});

import { strict as assert } from 'node:assert';
import { SendCache } from '../../../src/core/messages/send-cache';
import { prepareForSend } from '../../../src/core/messages/send';
import type { MessageFormat } from '../../../src/core/messages/types';
import { aiSdkSession } from '../../support/ai-sdk-transcript';
import { anthropicSessions, corpusConversations } from '../../support/corpus';
import { geminiSession } from '../../support/gemini-transcript';
import { mulberry32 } from '../../support/rng';

/** A session as a client sends it step by step: each step the same elements as before plus the next few. */
function steps(messages: readonly unknown[], rand: () => number): unknown[][] {
  const out: unknown[][] = [];
  for (let end = 1; end <= messages.length; end += 1 + Math.floor(rand() * 6)) out.push(messages.slice(0, end));
  out.push([...messages]);
  return out;
}

/** Drops some tool results and swaps neighbours, so calls go unanswered and results come out of order. */
function disorder(messages: readonly unknown[], rand: () => number, isResult: (m: unknown) => boolean): unknown[] {
  const out = messages.filter((m) => !(isResult(m) && rand() < 0.15));
  for (let i = 1; i < out.length; i++) {
    if (isResult(out[i]) && isResult(out[i - 1]) && rand() < 0.5) [out[i - 1], out[i]] = [out[i], out[i - 1]];
  }
  return out;
}

const role = (m: unknown) => (m as { role?: unknown }).role;
const sessions: { name: string; format: MessageFormat; messages: unknown[]; isResult: (m: unknown) => boolean }[] = [
  ...corpusConversations().map((c) => ({
    name: c.name,
    format: 'chat' as const,
    messages: c.messages,
    isResult: (m: unknown) => role(m) === 'tool',
  })),
  ...anthropicSessions().map((c) => ({
    name: c.name,
    format: 'anthropic' as const,
    messages: c.messages,
    isResult: () => false,
  })),
  { name: 'gemini', format: 'gemini', messages: geminiSession(), isResult: () => false },
  { name: 'ai-sdk', format: 'ai-sdk', messages: aiSdkSession(), isResult: (m: unknown) => role(m) === 'tool' },
];

/** The outcome of a send: the elements in order, or the error's message. */
function send(
  messages: readonly unknown[],
  format: MessageFormat,
  unanswered: 'error' | 'synthesize',
  cache?: SendCache
): unknown[] | string {
  try {
    const options = { format, unanswered };
    return cache ? cache.prepare(messages, options) : prepareForSend(messages, options);
  } catch (err) {
    return (err as Error).message;
  }
}

describe('sending a growing context (SendCache)', () => {
  for (const session of sessions) {
    it(`sends every step of ${session.name} as prepareForSend does, in order and disorder`, () => {
      const rand = mulberry32(session.messages.length);
      const disordered = disorder(session.messages, rand, session.isResult);
      let extended = 0;
      for (const messages of [session.messages, disordered]) {
        for (const unanswered of ['synthesize', 'error'] as const) {
          const cache = new SendCache();
          for (const step of steps(messages, rand)) {
            const fresh = send(step, session.format, unanswered);
            const cached = send(step, session.format, unanswered, cache);
            assert.deepEqual(cached, fresh);
            // The caller's own elements come back as themselves; only synthesized results are new objects.
            const given = new Set(step);
            if (Array.isArray(fresh))
              fresh.forEach((m, i) => given.has(m) && assert.equal((cached as unknown[])[i], m));
            if (cache.readFrom > 0) extended++;
          }
        }
      }
      assert.ok(extended > 0, 'some steps were sent by reading only their new messages');
    });
  }

  it('reads everything again after a send that changed the context, a rewrite or another policy', () => {
    const call = (id: string) => ({ id, type: 'function', function: { name: 't', arguments: '{}' } });
    const asked = { role: 'assistant', content: null, tool_calls: [call('a')] };
    const user = { role: 'user', content: 'hi' };
    const cache = new SendCache();
    cache.prepare([user], { format: 'chat' });
    cache.prepare([user, asked], { format: 'chat', unanswered: 'synthesize' });
    assert.equal(cache.readFrom, 0, 'another policy');
    const answer = { role: 'tool', tool_call_id: 'a', content: 'out' };
    const more = { role: 'user', content: 'next' };
    assert.equal(cache.prepare([user, asked, answer, more], { format: 'chat', unanswered: 'synthesize' }).length, 4);
    assert.equal(cache.readFrom, 0, 'the last send inserted a result');
    const ok = { role: 'assistant', content: 'ok' };
    cache.prepare([user, asked, answer, more, ok], { format: 'chat' });
    assert.equal(cache.readFrom, 0, 'another policy again');
    cache.prepare([user, asked, answer, more, ok, more], { format: 'chat' });
    assert.equal(cache.readFrom, 5);
    cache.prepare([{ ...user }, asked], { format: 'chat', unanswered: 'synthesize' });
    assert.equal(cache.readFrom, 0, 'a rewritten first message');
  });

  it('names a bad new message by its index in the whole context', () => {
    const cache = new SendCache();
    const user = { role: 'user', content: 'hi' };
    cache.prepare([user, { role: 'assistant', content: 'yes' }], { format: 'chat' });
    assert.throws(
      () =>
        cache.prepare([user, { role: 'assistant', content: 'yes' }, { role: 'tool', content: 'x' }], {
          format: 'chat',
        }),
      /message 2: /
    );
  });
});

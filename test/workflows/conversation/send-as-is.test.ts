// SendAsIsCheck says a context goes out as stored exactly when the workflow's `sendable` query (prepareForSend) would
// return it unchanged: checked step by step on the Claude Code sessions in their own Anthropic shape, whose stored
// contexts end in open calls as often as real agents leave them.
import { strict as assert } from 'node:assert';
import { defaultSettings } from '../../../src/contract/settings';
import { prepareForSend } from '../../../src/core/messages/send';
import type { MessageFormat } from '../../../src/core/messages/types';
import type { ReadonlyCarriedState } from '../../../src/workflows/conversation/carried-state';
import { SendAsIsCheck } from '../../../src/workflows/conversation/send-as-is';
import { anthropicSessions } from '../../support/corpus';

/** A stand-in for the conversation state: the check reads the format, the setting and the raws. */
function stateOf(raws: unknown[], format: MessageFormat | null, unanswered: 'error' | 'synthesize' = 'synthesize') {
  return {
    carried: { format, settings: { ...defaultSettings, unanswered } } as unknown as ReadonlyCarriedState,
    raws: () => raws,
  };
}

/** @returns whether `prepareForSend` gives `raws` back unchanged (false when it throws). */
function unchanged(raws: unknown[], unanswered: 'error' | 'synthesize'): boolean {
  try {
    const out = prepareForSend(raws, { format: 'anthropic', unanswered });
    return out.length === raws.length && out.every((m, i) => m === raws[i]);
  } catch {
    return false;
  }
}

const use = (id: string) => ({ role: 'assistant', content: [{ type: 'tool_use', id, name: 'lookup', input: {} }] });
const answer = (id: string) => ({ role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: 'ok' }] });

describe('SendAsIsCheck (a context the client may send as stored)', () => {
  it('agrees with the sendable query at every step of the Anthropic corpus sessions, both policies', () => {
    let open = 0;
    for (const policy of ['synthesize', 'error'] as const) {
      for (const { name, messages } of anthropicSessions()) {
        const check = new SendAsIsCheck();
        const live: unknown[] = [];
        for (let i = 0; i < messages.length; i++) {
          live.push(messages[i]);
          const expected = unchanged(live, policy);
          if (!expected) open++;
          assert.equal(check.check(stateOf([...live], 'anthropic', policy)), expected, `${name} step ${i} ${policy}`);
        }
      }
    }
    assert.ok(open > 0, 'some steps leave a call open');
  });

  it('is false for chat, Responses and a conversation without messages, whose rules every client has', () => {
    const raws = [{ role: 'user', content: 'hi' }];
    for (const format of ['chat', 'responses', null] as const) {
      assert.equal(new SendAsIsCheck().check(stateOf(raws, format)), false, String(format));
    }
  });

  it('follows a call opened, answered, and a context rewritten under it', () => {
    const check = new SendAsIsCheck();
    const first = [{ role: 'user', content: 'go' }, use('a')];
    assert.equal(check.check(stateOf(first, 'anthropic')), false, 'a call left open');
    assert.equal(check.check(stateOf([...first, answer('a')], 'anthropic')), true);
    assert.equal(check.check(stateOf([...first, answer('a'), use('b')], 'anthropic', 'error')), false);
    // A fold replaces the messages: the check reads the new context whole.
    const folded = [{ role: 'user', content: 'summary' }, use('c'), answer('c')];
    assert.equal(check.check(stateOf(folded, 'anthropic')), true);
  });
});

// The typed-message format was named 's0' before it was named 'typed'. Conversations stored with the old name, and
// activities scheduled by older workflow code, must keep working: every place a format comes in reads both names.
import { strict as assert } from 'node:assert';
import { MockActivityEnvironment } from '@temporalio/testing';
import { createCountTokensActivity, type CountTokensResult } from '../../../src/activities/count-tokens';
import { formatProblem } from '../../../src/contract/conversation-id';
import { adapterFor } from '../../../src/core/messages/adapter-for-format';
import { currentFormatName, formatNamed, MESSAGE_FORMATS } from '../../../src/core/messages/format-name';
import { normalize } from '../../../src/core/messages/normalize';
import type { MessageFormat } from '../../../src/core/messages/types';
import { typedMessagesAdapter } from '../../../src/core/messages/typed-messages';
import { createTokenCounter } from '../../../src/tokens';
import { initialCompactorState, parseCompactorState } from '../../../src/workflows/compactor/compactor-state';
import { ConversationState } from '../../../src/workflows/conversation/conversation-state';
import { defaultSettings } from '../../../src/contract/settings';
import { checkStartInput } from '../../../src/workflows/conversation/validate-start';

/** A value as it arrives from a payload written before the rename (typed as the current names, holding the old). */
const former = 's0' as MessageFormat;
const typed = [
  { type: 'user', text: 'Where is order 5000?' },
  { type: 'activity', text: 'looked it up', payload: '{"order":5000,"status":"shipped"}' },
];

describe("message format names ('s0' is the typed format's former name)", () => {
  it('names every format by its current name and reads the former one', () => {
    assert.deepEqual(MESSAGE_FORMATS, ['chat', 'responses', 'typed', 'anthropic', 'gemini', 'ai-sdk']);
    for (const f of MESSAGE_FORMATS) assert.equal(formatNamed(f), f);
    assert.equal(formatNamed('s0'), 'typed');
    for (const bad of ['xml', 'S0', '', null, undefined, 0, {}]) assert.equal(formatNamed(bad), undefined);
    assert.equal(currentFormatName('s0'), 'typed');
    assert.equal(currentFormatName('chat'), 'chat');
    assert.equal(currentFormatName(null), null);
    assert.equal(formatProblem('s0'), undefined);
    assert.match(
      formatProblem('xml')!,
      /format must be one of chat, responses, typed, anthropic, gemini, ai-sdk, got "xml"/
    );
  });

  it('reads typed messages under either name the same way (adapter, normalise, pricing)', () => {
    assert.equal(adapterFor(former), typedMessagesAdapter);
    assert.deepEqual(normalize(typed, former), normalize(typed, 'typed'));
    assert.equal(normalize(typed, former).format, 'typed');
    assert.equal(normalize(typed).format, 'typed', 'detection names the format by its current name');
    const counter = createTokenCounter({ model: 'gpt-4o' });
    assert.deepEqual(counter.countMessages(typed, former), counter.countMessages(typed, 'typed'));
    assert.throws(
      () => adapterFor('xml' as MessageFormat),
      /unknown message format 'xml' \(known: chat, responses, typed, anthropic, gemini, ai-sdk\)/
    );
  });

  it('counts an activity input scheduled before the rename', async () => {
    const counter = createTokenCounter({ model: 'gpt-4o' });
    const result = await new MockActivityEnvironment().run(createCountTokensActivity(), {
      model: 'gpt-4o',
      format: former,
      messages: typed,
    });
    assert.deepEqual((result as CountTokensResult).counts, counter.countMessages(typed, 'typed'));
  });

  it('carries state saved with the former name over under the current one', () => {
    const saved = { ...initialCompactorState(), format: former };
    assert.equal(parseCompactorState(JSON.parse(JSON.stringify(saved))).format, 'typed');
    const carried = JSON.parse(JSON.stringify(ConversationState.create('c', defaultSettings).carried));
    const state = new ConversationState({ ...carried, format: 's0' });
    assert.equal(state.carried.format, 'typed');
    assert.equal(checkStartInput({ format: 's0' }, 'conversation-c').format, 'typed');
  });
});

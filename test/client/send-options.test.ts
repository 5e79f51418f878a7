// How the client normalises the context it sends: by the format and `unanswered` setting every `prepare` result
// carries, so a new client reads no state first, and a setting another client changed applies at the next call.
import { strict as assert } from 'node:assert';
import type { Client } from '@temporalio/client';
import { ConversationClient } from '../../src/client/conversation-client';
import { withConversationWorker, uniqueConversationId } from '../support/conversation';

/** `client` with every workflow query counted by name. */
function countingQueries(client: Client): { client: Client; queries: string[] } {
  const queries: string[] = [];
  const bind = <T extends object>(target: T, key: string | symbol): unknown => {
    const v = Reflect.get(target, key) as unknown;
    return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
  };
  const handleOf = (handle: object): object =>
    new Proxy(handle, {
      get: (h, key) =>
        key === 'query'
          ? (def: { name?: string } | string, ...args: unknown[]) => {
              queries.push(typeof def === 'string' ? def : String(def.name));
              return (h as { query: (...a: unknown[]) => unknown }).query(def, ...args);
            }
          : bind(h, key),
    });
  const workflow = new Proxy(client.workflow, {
    get: (w, key) =>
      key === 'getHandle'
        ? (...args: Parameters<Client['workflow']['getHandle']>) => handleOf(w.getHandle(...args))
        : bind(w, key),
  });
  return { client: new Proxy(client, { get: (c, key) => (key === 'workflow' ? workflow : bind(c, key)) }), queries };
}

const call = (id: string) => ({
  role: 'assistant',
  content: null,
  tool_calls: [{ id, type: 'function', function: { name: 'lookup', arguments: '{}' } }],
});

describe('ConversationClient send options', function () {
  this.timeout(120_000);

  it('takes the format and unanswered setting from the prepare result: no query on a step', async () => {
    await withConversationWorker(async ({ env, taskQueue }) => {
      const counted = countingQueries(env.client);
      const conversationId = uniqueConversationId('send-options');
      const conv = new ConversationClient({ client: counted.client, conversationId, taskQueue });
      await conv.prepare([{ role: 'user', content: 'hi' }]);
      const prepared = await conv.prepare([call('c1')], { output: { role: 'assistant', content: 'hello' } });
      // The unanswered call is answered by a synthesized result (the default setting).
      assert.equal(prepared.messages.length, 4);
      assert.equal((prepared.messages[3] as { tool_call_id?: string }).tool_call_id, 'c1');
      assert.deepEqual(counted.queries, []);
      // A client without a mirror of the conversation reads its context, still not its state.
      const fresh = countingQueries(env.client);
      const other = new ConversationClient({ client: fresh.client, conversationId, taskQueue });
      await other.prepare([{ role: 'user', content: 'again' }]);
      assert.deepEqual(fresh.queries, ['context']);
    });
  });

  it('applies an unanswered setting another client configured at the next prepare', async () => {
    await withConversationWorker(async ({ env, taskQueue }) => {
      const conversationId = uniqueConversationId('send-options-configured');
      const agent = new ConversationClient({ client: env.client, conversationId, taskQueue });
      const synthesized = await agent.prepare([{ role: 'user', content: 'look it up' }, call('c1')]);
      assert.equal(synthesized.messages.length, 3);
      const operator = new ConversationClient({ client: env.client, conversationId, taskQueue });
      await operator.configure({ unanswered: 'error' });
      await assert.rejects(
        agent.prepare([{ role: 'tool', tool_call_id: 'c1', content: 'found' }, call('c2')]),
        (err: Error) => err.name === 'TranscriptValidationError' && /c2/.test(err.message)
      );
    });
  });
});

/**
 * Records workflow histories for the replay tests: runs a few representative conversations (append, prepare, fold,
 * failed fold with back-off, rewind, clear, configure, continue-as-new, close, background folds with a fallback) on a real dev server and saves every
 * run's history (protobuf, as the SDK's own replay fixtures) under test/histories/. Run it when the workflow changes on purpose:
 *   node --require tsx/cjs test/record-histories.ts
 * Existing files are kept (they are what the replay test protects); committed histories must keep replaying, and a
 * change that breaks them needs a registered patch (src/workflows/patches.ts, docs/development.md "Replay compatibility").
 * To re-record a baseline, delete test/histories/*.bin first.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { temporal } from '@temporalio/proto';
import { ConversationClient } from '../src/client/conversation-client';
import { corpusConversation } from './support/corpus';
import { driveConversation } from './support/drive';
import { startOpenAIServer } from './support/openai-server';
import { uniqueConversationId, withConversationWorker } from './support/conversation';
import { stopSharedTestEnv } from './support/temporal';
import { TEST_CHAT_PROFILE, testProfiles } from './support/profiles';

const user = (text: string) => ({ role: 'user', content: text });
const assistant = (text: string) => ({ role: 'assistant', content: text });

async function main(): Promise<void> {
  const server = await startOpenAIServer({ lifetimeMs: 600_000 });
  const ids: string[] = [];
  await withConversationWorker(
    async ({ env, open, taskQueue }) => {
      const basic = open(uniqueConversationId('replay-basic'));
      await basic.prepare([{ role: 'system', content: 'Be brief.' }, user('hello')]);
      await basic.record(assistant('hi'));
      await basic.prepare([user('and now?')]);
      await basic.record(assistant('now this'));
      await basic.rewind();
      await basic.configure({ budget: 64_000 });
      await basic.clear();
      await basic.prepare([user('again')]);
      await basic.close();
      ids.push(basic.workflowId);

      // Writers, hostile input and the byte budget: two writers, a retried and an out-of-order append, a bad signal,
      // rewind with an expected version, and messages heavy enough to be lightened.
      const hostile = open(uniqueConversationId('replay-hostile'), { maxContextBytes: 65_536 });
      const second = open(hostile.workflowId.replace(/^conversation-/, ''));
      await hostile.prepare([{ role: 'system', content: 'Be brief.' }, user('hello')]);
      await second.record(assistant('hi from the second writer'));
      const handle = env.client.workflow.getHandle(hostile.workflowId);
      await handle.executeUpdate('append', {
        args: [
          {
            messages: [{ role: 'system', content: 'Be brief.' }, user('hello')],
            writer: hostile.writerId,
            clientSeq: 0,
          },
        ],
      });
      await handle
        .executeUpdate('append', { args: [{ messages: [user('late')], writer: 'w-raw', clientSeq: 1 }] })
        .catch(() => undefined);
      await handle.signal('append', { messages: [{ role: 'user', content: [1, null] }] });
      for (let i = 0; i < 3; i++) {
        await hostile.prepare([user(`${i} ${'='.repeat(40_000)}`)]);
        await hostile.record(assistant(`ok ${i}`));
      }
      await hostile.rewind({ expectedVersion: (await hostile.state()).version });
      await hostile.prepare([user('after the rewind')]);
      ids.push(hostile.workflowId);

      const fold = open(uniqueConversationId('replay-fold'), { budget: 8000 }, { maxUpdatesPerRun: 20 });
      await driveConversation(fold, corpusConversation('tau2-bench-gpt41-airline-task18').messages);
      ids.push(fold.workflowId);

      server.script({ kind: 'empty' }, { kind: 'empty' });
      const failing = open(uniqueConversationId('replay-backoff'), {
        budget: 2500,
        summarizer: { profile: TEST_CHAT_PROFILE },
      });
      for (const m of corpusConversation('tau2-bench-gpt41-retail-task38').messages.slice(0, 20)) {
        const p = await failing.prepare([m]);
        if (p.fold) break;
      }
      await failing.prepare([user('ok')]);
      ids.push(failing.workflowId);

      const evicting = open(uniqueConversationId('replay-evict'), { budget: 32_000, evictAtRatio: 0.5 });
      await driveConversation(evicting, corpusConversation('mini-swe-agent-deepseek-django__django-11797').messages);
      ids.push(evicting.workflowId);

      // Background folds: one applied at a later prepare, one offline fallback replaced by the model summary.
      const backgroundSettings = { budget: 4000, maxFoldWaitMs: 300, summarizer: { profile: TEST_CHAT_PROFILE } };
      const background = open(uniqueConversationId('replay-background'), backgroundSettings);
      const turn = (i: number) =>
        user(`Request ${i}: ` + `please check order ${1000 + i} and its shipping. `.repeat(24));
      await background.prepare([{ role: 'system', content: 'You are a shop assistant.' }]);
      let i = 0;
      for (const delay of [1500, 3000]) {
        server.script({ kind: 'slow', ms: delay });
        while (!(await background.prepare([turn(i++)])).folding) await background.record(assistant(`ok ${i}`));
        await background.record(assistant(`ok ${i}`));
        // The second fold is overtaken by a big turn: the offline fallback applies, the model summary replaces it.
        if (delay > 2000) await background.prepare([user('The whole order history: '.repeat(220))]);
        await background.waitForFold({ timeoutMs: 30_000 });
        await background.prepare([turn(i++)]);
        await background.record(assistant(`ok ${i}`));
      }
      await background.close();
      ids.push(background.workflowId);

      // Pins and rules: a pinned message (client and raw update), rules set at start and replaced by configure,
      // folds that keep both, a refused pin over the quarter of the budget, and clear.
      const pins = open(uniqueConversationId('replay-pins'), { budget: 2000, rules: ['Never book before 07:00.'] });
      await pins.prepare([
        { role: 'system', content: 'You are a travel agent.' },
        { ...user('My seat: aisle.'), pin: true },
      ]);
      await env.client.workflow.getHandle(pins.workflowId).executeUpdate('append', {
        args: [{ messages: [{ ...user('Raw pin: invoices to ap@example.org.'), pin: true }] }],
      });
      for (let k = 0; k < 24; k++) {
        await pins.prepare([
          user(`Request ${k}: ${'check the fare rules of order 5000 and its change fees. '.repeat(8)}`),
        ]);
        await pins.record(assistant(`done ${k}`));
        if (k === 10) await pins.configure({ rules: ['Never book before 08:00.'] });
      }
      await pins
        .prepare([{ ...user(`Remember: ${'the aisle seat and the loyalty number, '.repeat(60)}`), pin: true }])
        .catch(() => undefined);
      await pins.clear();
      await pins.close();
      ids.push(pins.workflowId);

      // Issue 9: a Responses agent that opened with plain messages (upgraded from chat), tool definitions counted,
      // usage reported after a record, and an abandoned call (its "not run" result folds like any pair).
      const agent = open(uniqueConversationId('replay-issue9'), { budget: 3000, foldMode: 'blocking' });
      const tools = [{ type: 'function', name: 'read', parameters: { type: 'object', properties: {} } }];
      const ask = (t: number) => ({
        role: 'user',
        content: `question ${t}: ${'please read the next file. '.repeat(8)}`,
      });
      const callItem = (t: number) => ({ type: 'function_call', call_id: `fc_${t}`, name: 'read', arguments: '{}' });
      let sent = await agent.prepare<unknown>([{ role: 'system', content: 'Be brief.' }, ask(0)], { tools });
      for (let t = 0; t < 14; t++) {
        await agent.record([callItem(t)]);
        if (t === 2) {
          sent = await agent.prepare([ask(t + 1)], { usage: { inputTokens: sent.tokens + 20 }, tools });
          continue; // the result of call 2 never arrives: abandoned by the next question
        }
        const output = {
          type: 'function_call_output',
          call_id: `fc_${t}`,
          output: `file ${t}: ${'x = 1\n'.repeat(30)}`,
        };
        sent = await agent.prepare([output], { usage: { inputTokens: sent.tokens + 20 }, tools });
        await agent.record([
          { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: `done ${t}` }] },
        ]);
        sent = await agent.prepare([ask(t + 1)], { tools });
      }
      await agent.close();
      ids.push(agent.workflowId);

      // Search attributes (fold, close), current details and activity summaries.
      const visible = open(uniqueConversationId('replay-visibility'), { budget: 6000 });
      await driveConversation(visible, corpusConversation('tau2-bench-gpt41-retail-task38').messages);
      await visible.close();
      ids.push(visible.workflowId);

      // Typed messages under the format's former name 's0', as conversations stored before it was named 'typed':
      // rules, a pin, folds and continue-as-new (the carried state names the format too).
      const typed = new ConversationClient({
        client: env.client,
        conversationId: uniqueConversationId('replay-typed'),
        taskQueue,
        format: 's0',
        settings: { budget: 2000, rules: ['Answer in English.'] },
        limits: { maxUpdatesPerRun: 12 },
      });
      await typed.prepare([
        { type: 'instructions', text: 'You are a support bot.' },
        { type: 'user', text: 'My order is 5000.', pin: true },
      ]);
      for (let k = 0; k < 20; k++) {
        await typed.prepare([
          { type: 'user', text: `Request ${k}: ${'check the order and its shipping. '.repeat(8)}` },
        ]);
        await typed.record({ type: 'bot', text: `done ${k}` });
      }
      await typed.close();
      ids.push(typed.workflowId);

      // Runs continued as new after 60 updates under the default limits (carried in the state to the next run).
      const long = open(uniqueConversationId('replay-long-run'), { budget: 64_000 });
      for (let k = 0; k < 130; k++) {
        await long.prepare([user(`step ${k}`)]);
        await long.record(assistant(`done ${k}`));
      }
      await long.close();
      ids.push(long.workflowId);

      // Fold records written by an ordinary activity (the `fold-record-activity` patch), across continue-as-new.
      const recorded = open(uniqueConversationId('replay-fold-activity'), { budget: 8000 }, { maxUpdatesPerRun: 20 });
      await driveConversation(recorded, corpusConversation('tau2-bench-gpt41-airline-task18').messages);
      ids.push(recorded.workflowId);

      // Ordinary steps without idle awaits (the `step-without-idle-awaits` patch): blocking folds with eviction, across
      // continue-as-new, then background folds applied at a later step.
      const lean = open(
        uniqueConversationId('replay-idle-awaits'),
        { budget: 16_000, evictAtRatio: 0.5 },
        {
          maxUpdatesPerRun: 40,
        }
      );
      await driveConversation(lean, corpusConversation('mini-swe-agent-deepseek-django__django-11797').messages);
      ids.push(lean.workflowId);
      const leanBackground = open(uniqueConversationId('replay-idle-awaits-background'), backgroundSettings);
      await leanBackground.prepare([{ role: 'system', content: 'You are a shop assistant.' }]);
      let j = 0;
      while (!(await leanBackground.prepare([turn(j++)])).folding) await leanBackground.record(assistant(`ok ${j}`));
      await leanBackground.waitForFold({ timeoutMs: 30_000 });
      for (let k = 0; k < 3; k++) await leanBackground.prepare([turn(j++)]);
      await leanBackground.close();
      ids.push(leanBackground.workflowId);

      // RECORD_ONLY=<label> saves just the histories whose workflow id holds it (the others still run).
      for (const workflowId of ids.filter((w) => !process.env.RECORD_ONLY || w.includes(process.env.RECORD_ONLY))) {
        let run = 0;
        for await (const { history } of env.client.workflow
          .list({ query: `WorkflowId = '${workflowId}'` })
          .intoHistories()) {
          const name = `${workflowId.replace(/-\d+-\d+-[a-z0-9]+$/, '')}-run${++run}.bin`;
          const path = join(__dirname, 'histories', name);
          // Histories recorded by earlier code are what the replay test protects: never overwrite them.
          if (existsSync(path)) continue;
          writeFileSync(path, temporal.api.history.v1.History.encode(history!).finish());
          console.log(`saved ${name}`);
        }
      }
    },
    { profiles: testProfiles(server.baseURL), summarize: { env: { DC_TEST_KEY: 'sk-record' } } }
  );
  await server.close();
  await stopSharedTestEnv();
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});

import { strict as assert } from 'node:assert';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { ConversationClient, type Prepared } from '../../src/client/conversation-client';
import type { FoldProgressEvent } from '../../src/client/fold-progress';
import { isMarkedSummary } from '../../src/core/messages/text';
import { conversationWorkflowId } from '../../src/contract/definitions';
import { corpusConversation } from '../support/corpus';
import { assertFoldedOnce, killWorker, startWorker, waitFor } from '../support/crash';
import { startOpenAIServer, type OpenAITestServer } from '../support/openai-server';
import { TEST_CHAT_PROFILE, testProfiles } from '../support/profiles';
import { uniqueConversationId, withConversationWorker } from '../support/conversation';
import { sharedTestEnv } from '../support/temporal';
import { system, user } from '../support/shop-conversation';

const assistant = (i: number) => ({ role: 'assistant', content: `Order ${1000 + i} ships tomorrow.` });
const summaryText = (m: unknown): string | null => {
  const c = (m as { content?: unknown }).content;
  return typeof c === 'string' && isMarkedSummary(c) ? c : null;
};
const chat = (_baseURL: string) => ({ profile: TEST_CHAT_PROFILE });
const keyEnv = (baseURL: string) => ({
  profiles: testProfiles(baseURL),
  summarize: { env: { DC_TEST_KEY: 'sk-background' } },
});

/** Feeds user/assistant turns until `until` holds for a `prepare` result. @returns that result and the next turn. */
async function turnsUntil(
  conv: ConversationClient,
  from: number,
  until: (p: Prepared) => boolean,
  max = 40
): Promise<{ prepared: Prepared; next: number }> {
  for (let i = from; i < from + max; i++) {
    const prepared = await conv.prepare([user(i)]);
    await conv.record(assistant(i));
    if (until(prepared)) return { prepared, next: i + 1 };
  }
  throw new Error(`no prepare satisfied the condition within ${max} turns`);
}

describe('background folds on the real dev server', function () {
  this.timeout(240_000);
  let server: OpenAITestServer;
  beforeEach(async () => {
    server = await startOpenAIServer({ lifetimeMs: 240_000 });
  });
  afterEach(async () => {
    await server.close();
  });

  it('with 2 s folds, never blocks a prepare below the hard limit and keeps every message appended meanwhile', async () => {
    // A long coding-agent session, growing a few hundred tokens a step; the agent's own model call takes 250 ms.
    const messages = corpusConversation('mini-swe-agent-deepseek-sqlfluff__sqlfluff-1733').messages.slice(0, 150);
    for (let i = 0; i < 30; i++) server.script({ kind: 'slow', ms: 2000 });
    await withConversationWorker(async ({ open, archive }) => {
      const id = uniqueConversationId('bg-2s');
      const conv = open(id, { budget: 32_000, summarizer: chat(server.baseURL), maxFoldWaitMs: 30_000 });
      const sent: unknown[] = [];
      let pending: unknown[] = [];
      let startedAt: number | null = null;
      let duringFold = 0;
      let applied = 0;
      const step = async (): Promise<void> => {
        sent.push(...pending);
        const t0 = performance.now();
        const prepared = await conv.prepare(pending);
        const ms = performance.now() - t0;
        pending = [];
        if (startedAt !== null && !/hard limit/.test(prepared.decision)) {
          // A fold was in flight: this prepare neither waited for it (no wait below the hard limit) nor took as long
          // as the 2 s summary.
          assert.doesNotMatch(prepared.decision, /waited/);
          assert.ok(ms < 2000, `a prepare below the hard limit took ${Math.round(ms)} ms: ${prepared.decision}`);
        }
        if (prepared.fold?.ok && startedAt !== null) {
          applied++;
          // Every message appended since the fold started is still there, verbatim, after the summary.
          const context = (await conv.context()).messages;
          const since = sent.slice(startedAt);
          assert.deepEqual(context.slice(context.length - since.length), since);
          assert.equal(context.filter((m) => summaryText(m) !== null).length, 1);
        }
        if (prepared.fold) startedAt = null;
        if (prepared.folding?.phase === 'summarizing') {
          if (startedAt === null) startedAt = sent.length;
          else duringFold++;
        }
      };
      for (const message of messages) {
        if ((message as { role?: string }).role !== 'assistant') {
          pending.push(message);
          continue;
        }
        await step();
        await new Promise((r) => setTimeout(r, 250));
        sent.push(message);
        await conv.record([message]);
      }
      if (pending.length > 0) await step();
      assert.ok(applied >= 1, 'at least one fold started in the background was applied at a later prepare');
      assert.ok(duringFold >= 3, `prepares answered while a fold was in flight: ${duringFold}`);
      const folds = await conv.folds();
      assert.ok(
        folds.every((f) => f.ok && f.fallback === false),
        JSON.stringify(folds.map((f) => f.error))
      );
      assert.deepEqual(
        (await archive.readAll(conversationWorkflowId(id))).map((a) => a.message),
        messages
      );
    }, keyEnv(server.baseURL));
  });

  it('applies the offline fallback within maxFoldWaitMs when the provider hangs', async () => {
    server.script({ kind: 'slow', ms: 200_000 });
    await withConversationWorker(async ({ open }) => {
      const conv = open(uniqueConversationId('bg-hung'), {
        budget: 4000,
        summarizer: chat(server.baseURL),
        maxFoldWaitMs: 1500,
      });
      await conv.prepare([system]);
      const { next } = await turnsUntil(conv, 0, (p) => p.folding?.phase === 'summarizing');
      assert.equal(server.requests.length, 1, 'the model fold started in the background');
      // Jump past the hard limit (0.9 × 4000) with one big turn: the prepare waits 1.5 s, then falls back.
      const big = { role: 'user', content: 'Here is the full order history. '.repeat(150) + `(${next})` };
      const t0 = performance.now();
      const prepared = await conv.prepare([big]);
      const ms = performance.now() - t0;
      assert.equal(prepared.fold?.ok, true, prepared.decision);
      assert.match(prepared.decision, /offline fallback/);
      assert.ok(ms >= 1400, `the prepare waited for the fold in flight (${Math.round(ms)} ms)`);
      assert.ok(ms < 1500 + 15_000, `the wait is bounded by maxFoldWaitMs (${Math.round(ms)} ms)`);
      assert.ok(prepared.tokens <= 4000, `the context is within budget: ${prepared.tokens}`);
      const last = (await conv.folds()).at(-1)!;
      assert.equal(last.fallback, true);
      assert.equal(last.ok, true);
      const state = await conv.state();
      assert.equal(state.folding?.phase, 'replacing', 'the model summary may still replace the fallback');
      assert.equal(server.requests.length, 1);
    }, keyEnv(server.baseURL));
  });

  it('replaces the fallback summary with the model summary when it arrives, and shows progress meanwhile', async () => {
    server.script({ kind: 'slow', ms: 4000 });
    const events: FoldProgressEvent[] = [];
    await withConversationWorker(async ({ env, taskQueue }) => {
      const conv = new ConversationClient({
        client: env.client,
        conversationId: uniqueConversationId('bg-replace'),
        taskQueue,
        settings: { budget: 4000, summarizer: chat(server.baseURL), maxFoldWaitMs: 300 },
        onFoldProgress: (e) => events.push(e),
        foldProgressIntervalMs: 200,
      });
      await conv.prepare([system]);
      const { prepared: started, next } = await turnsUntil(conv, 0, (p) => p.folding?.phase === 'summarizing');
      // Progress in the state query and in the workflow's current details (what the Temporal UI shows).
      const folding = (await conv.state()).folding!;
      assert.equal(folding.phase, 'summarizing');
      assert.equal(folding.attempt, 1);
      assert.equal(folding.lastError, null);
      assert.ok(folding.expected.split > 0 && folding.expected.archiveRange !== null);
      assert.deepEqual(started.folding?.expected, folding.expected);
      const handle = env.client.workflow.getHandle(conv.workflowId);
      const metadata = await handle.query<{ currentDetails?: string }>('__temporal_workflow_metadata');
      assert.match(metadata.currentDetails ?? '', /Compacting/);
      const big = { role: 'user', content: 'Here is the full order history. '.repeat(150) + `(${next})` };
      const fallback = await conv.prepare([big]);
      assert.match(fallback.decision, /offline fallback/);
      const fallbackNumber = fallback.fold!.number;
      const fallbackSummary = (await conv.context()).messages.map(summaryText).find((t) => t !== null)!;
      // The model answers after 4 s; waitForFold resolves when its summary is in.
      const waited = await conv.waitForFold({ timeoutMs: 60_000 });
      assert.equal(waited.folding?.phase, 'ready');
      const after = await conv.prepare([user(next + 1)]);
      assert.match(after.decision, new RegExp(`replaced the fallback summary of fold ${fallbackNumber}`));
      const last = (await conv.folds()).at(-1)!;
      assert.equal(last.ok, true);
      assert.equal(last.replaces, fallbackNumber);
      const summaries = (await conv.context()).messages.map(summaryText).filter((t) => t !== null);
      assert.equal(summaries.length, 1);
      assert.match(summaries[0]!, /late summary/);
      assert.notEqual(summaries[0], fallbackSummary);
      assert.equal((await conv.state()).folding, null);
      // The watcher reports until the summary is in ("compacting…" ends); the swap itself is the next prepare's.
      await waitFor(
        'the progress watcher to report the summary in',
        () => events.some((e) => e.folding === null || e.folding.phase === 'ready'),
        10_000
      );
      assert.ok(events.some((e) => e.folding?.phase === 'summarizing' && e.activity && e.activity.attempt >= 1));
    }, keyEnv(server.baseURL));
  });

  it('stops at once on a non-retryable error, escalates the back-off on the same prefix, and falls back at the hard limit', async () => {
    server.script({ kind: 'status', status: 401 }, { kind: 'status', status: 401 });
    await withConversationWorker(async ({ open }) => {
      const conv = open(uniqueConversationId('bg-401'), { budget: 6000, summarizer: chat(server.baseURL) });
      await conv.prepare([system]);
      let { next } = await turnsUntil(conv, 0, (p) => p.folding !== undefined);
      await conv.waitForFold({ timeoutMs: 30_000 });
      assert.equal(server.requests.length, 1, 'a non-retryable error is not retried');
      ({ next } = await turnsUntil(conv, next, (p) => p.fold !== undefined));
      const first = (await conv.folds()).at(-1)!;
      assert.equal(first.ok, false);
      assert.equal(first.error?.kind, 'provider');
      let state = await conv.state();
      assert.equal(state.backoff?.failures, 1);
      // Grown by enough items, the same prefix is tried again: attempt 2, with the last error shown.
      ({ next } = await turnsUntil(conv, next, (p) => p.folding !== undefined));
      state = await conv.state();
      assert.equal(state.folding?.attempt, 2);
      assert.match(state.folding?.lastError ?? '', /fold \d+ failed \(provider\)/);
      await conv.waitForFold({ timeoutMs: 30_000 });
      assert.equal(server.requests.length, 2);
      ({ next } = await turnsUntil(conv, next, (p) => p.fold !== undefined));
      state = await conv.state();
      const backoff = state.backoff!;
      assert.equal(backoff.failures, 2, 'the second failure of the same prefix escalates the back-off');
      assert.ok((backoff.at ?? 0) > 0);
      // The escalated back-off waits (60 s by default) even after growth; at the hard limit the offline fallback applies.
      const { prepared } = await turnsUntil(conv, next, (p) => p.fold !== undefined);
      assert.equal(prepared.fold?.ok, true, prepared.decision);
      assert.match(prepared.decision, /offline fallback/);
      assert.equal(server.requests.length, 2, 'no third model call while backing off');
    }, keyEnv(server.baseURL));
  });

  it('discards a background fold whose prefix was cleared meanwhile', async () => {
    server.script({ kind: 'slow', ms: 1500 });
    await withConversationWorker(async ({ open }) => {
      const conv = open(uniqueConversationId('bg-clear'), { budget: 4000, summarizer: chat(server.baseURL) });
      await conv.prepare([system]);
      const { next } = await turnsUntil(conv, 0, (p) => p.folding !== undefined);
      await conv.clear();
      const after = await conv.prepare([user(next)]);
      assert.match(after.decision, /discarded/);
      const last = (await conv.folds()).at(-1)!;
      assert.equal(last.error?.kind, 'discarded');
      assert.deepEqual((await conv.context()).messages, [system, user(next)]);
    }, keyEnv(server.baseURL));
  });

  it('keeps the blocking design as an option: the prepare at the trigger waits for the summary', async () => {
    server.script({ kind: 'slow', ms: 1000 });
    await withConversationWorker(async ({ open }) => {
      const conv = open(uniqueConversationId('bg-blocking'), {
        budget: 4000,
        summarizer: chat(server.baseURL),
        foldMode: 'blocking',
      });
      await conv.prepare([system]);
      const { prepared } = await turnsUntil(conv, 0, (p) => p.fold !== undefined);
      assert.equal(prepared.fold?.ok, true, prepared.decision);
      assert.equal(prepared.folding, undefined);
      assert.ok(prepared.tokens < 0.9 * 4000);
    }, keyEnv(server.baseURL));
  });

  it('a worker killed with SIGKILL during a background fold: the fold completes exactly once', async () => {
    const testEnv = await sharedTestEnv();
    const archivePath = join(mkdtempSync(join(tmpdir(), 'dc-bg-crash-')), 'archive.sqlite');
    const workerEnv = {
      TEMPORAL_ADDRESS: testEnv.address,
      TASK_QUEUE: `bg-crash-${process.pid}-${Date.now()}`,
      ARCHIVE_DRIVER: 'sqlite',
      ARCHIVE_PATH: archivePath,
      DC_TEST_KEY: 'sk-crash',
      SUMMARIZER_BASE_URL: server.baseURL,
    };
    // The first summary request hangs (the worker dies under it); the retry on the new worker answers.
    server.script({ kind: 'slow', ms: 200_000 }, { kind: 'text', text: 'Summary: orders checked; ids kept.' });
    let worker: ChildProcess = await startWorker(workerEnv);
    try {
      const id = uniqueConversationId('bg-crash');
      const conv = new ConversationClient({
        client: testEnv.client,
        conversationId: id,
        taskQueue: workerEnv.TASK_QUEUE,
        settings: { budget: 4000, summarizer: chat(server.baseURL) },
        limits: { summarizeHeartbeatTimeoutMs: 4000, summarizeHeartbeatIntervalMs: 1000 },
      });
      const sent: unknown[] = [system];
      await conv.prepare([system]);
      let i = 0;
      for (; i < 40; i++) {
        const p = await conv.prepare([user(i)]);
        sent.push(user(i));
        if (p.folding) break;
        await conv.record(assistant(i));
        sent.push(assistant(i));
      }
      await waitFor('the summary request', () => server.requests.length >= 1, 30_000);
      await killWorker(worker);
      worker = await startWorker(workerEnv);
      const waited = await conv.waitForFold({ timeoutMs: 120_000 });
      assert.equal(waited.folding?.phase, 'ready', 'the fold was restarted on the new worker and its summary is in');
      const applied = await conv.prepare([user(i + 1)]);
      sent.push(user(i + 1));
      assert.equal(applied.fold?.ok, true, applied.decision);
      await assertFoldedOnce(conv, server.requests.length, archivePath, id, sent);
    } finally {
      await killWorker(worker);
    }
  });
});

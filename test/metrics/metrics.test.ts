import { strict as assert } from 'node:assert';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { corpusConversation } from '../support/corpus';
import { driveConversation } from '../support/drive';
import { conversationClient, uniqueConversationId } from '../support/conversation';
import { startOpenAIServer } from '../support/openai-server';
import { spawnTs, unusedPort, waitFor, type Spawned } from '../support/processes';
import { sharedTestEnv } from '../support/temporal';

/** @returns the value of one sample (`name{labels} value`) in a Prometheus text page, or 0 when absent. */
function sample(page: string, name: string, labels = ''): number {
  const line = page.split('\n').find((l) => l.startsWith(`${name}${labels ? `{${labels}}` : ''} `));
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
}

async function scrape(url: string): Promise<string> {
  const res = await fetch(url);
  assert.equal(res.status, 200);
  return res.text();
}

describe('worker metrics and structured logs (npm start’s worker as a process)', function () {
  this.timeout(300_000);
  let worker: Spawned | undefined;

  afterEach(async () => {
    if (worker && worker.child.exitCode === null) {
      worker.child.kill('SIGTERM');
      await worker.exit;
    }
  });

  it('serves dc_* and temporal_* metrics that move during folds, and logs JSON lines with conversation and run ids', async () => {
    const env = await sharedTestEnv();
    const [port, temporalPort] = [await unusedPort(), await unusedPort()];
    const taskQueue = `metrics-${process.pid}-${Date.now()}`;
    const openai = await startOpenAIServer({ lifetimeMs: 300_000 });
    worker = spawnTs('src/worker.ts', [], {
      TEMPORAL_ADDRESS: env.address,
      TEMPORAL_TASK_QUEUE: taskQueue,
      DATA_DIR: mkdtempSync(join(tmpdir(), 'dc-metrics-')),
      METRICS_PORT: String(port),
      METRICS_TEMPORAL_PORT: String(temporalPort),
      LOG_LEVEL: 'info',
      LOG_FORMAT: 'json',
      // The worker's default summarizer profile: the local OpenAI-compatible server.
      SUMMARIZER_MODE: 'chat',
      SUMMARIZER_MODEL: 'small',
      OPENAI_BASE_URL: openai.baseURL,
      OPENAI_API_KEY: 'sk-metrics',
    });
    const w = worker;
    await waitFor(w, () => w.stdout().includes('polling task queue'), 'worker start');
    const url = `http://127.0.0.1:${port}/metrics`;
    assert.ok(w.stdout().includes(`Metrics: ${url}`), w.stdout());

    const before = await scrape(url);
    assert.equal(sample(before, 'dc_folds_total', 'outcome="ok"'), 0);
    for (const name of ['dc_fold_failures_total', 'dc_backoffs_total', 'dc_conversations_cached']) {
      assert.ok(before.includes(`# TYPE ${name}`), `${name} is exported`);
    }

    // The first fold fails (two empty answers: no_text), the prefix is backed off from, then a summarizer that
    // answers slowly, so the scrape below happens while a fold is in flight.
    openai.script(
      { kind: 'empty' },
      { kind: 'empty' },
      ...Array.from({ length: 12 }, () => ({ kind: 'slow' as const, ms: 700 }))
    );
    const id = uniqueConversationId('metrics');
    const conv = conversationClient(env.client, taskQueue, id, {
      settings: {
        budget: 2500,
        summarizer: { profile: 'default' },
      },
    });
    const messages = corpusConversation('tau2-bench-gpt41-retail-task38').messages;
    let during: string | undefined;
    const driving = driveConversation(conv, messages.slice(0, 24));
    while (during === undefined) {
      const view = await conv.state().catch(() => undefined);
      if (view?.folding) during = await scrape(url);
      else await new Promise((r) => setTimeout(r, 50));
    }
    const prepared = await driving;
    const prepares = prepared.length;
    const after = await scrape(url);
    await openai.close();

    const folds = await conv.folds();
    const ok = folds.filter((f) => f.ok).length;
    const failed = folds.filter((f) => !f.ok);
    assert.ok(folds.length >= 1, 'the conversation folded');
    assert.equal(sample(during, 'dc_conversations_cached'), 1, 'the conversation is in the sticky cache');
    assert.equal(sample(after, 'dc_folds_total', 'outcome="ok"'), ok);
    assert.equal(sample(after, 'dc_folds_total', 'outcome="failed"'), failed.length);
    for (const kind of new Set(failed.map((f) => f.error!.kind))) {
      const n = failed.filter((f) => f.error!.kind === kind).length;
      assert.equal(sample(after, 'dc_fold_failures_total', `kind="${kind}"`), n);
    }
    assert.equal(failed[0]?.error?.kind, 'no_text', 'the first fold failed as scripted');
    // A prepare's decision lists what happened in order ("summary applied …; backing off: …"): one back-off at most.
    const backedOff = prepared.filter((p) => p.decision.includes('backing off')).length;
    assert.ok(backedOff >= 1, 'a later prepare backed off');
    assert.equal(sample(after, 'dc_backoffs_total'), backedOff);
    assert.ok(ok >= 1, 'a later fold succeeded');
    assert.equal(sample(after, 'dc_fold_tokens_before_count'), folds.length);
    assert.equal(
      sample(after, 'dc_fold_tokens_before_sum'),
      folds.map((f) => f.tokensBefore).reduce((a, b) => a + b)
    );
    assert.equal(sample(after, 'dc_fold_tokens_after_count'), ok);
    const summarized = sample(after, 'dc_summarize_duration_seconds_count', 'mode="chat",outcome="ok"');
    assert.ok(summarized >= 1, 'summarize latency observed');
    assert.ok(
      sample(after, 'dc_summarize_duration_seconds_sum', 'mode="chat",outcome="ok"') >= 0.7 * summarized,
      'summarize latency includes the slow reply'
    );
    assert.equal(sample(after, 'dc_prepare_duration_seconds_count', 'outcome="ok"'), prepares);
    // Prompt-cache reuse: the sums of what every prepare reported in its result.
    const reported = (k: 'contextTokens' | 'tokens'): number => prepared.reduce((n, p) => n + p.prefix![k], 0);
    assert.ok(reported('tokens') > 0 && reported('tokens') < reported('contextTokens'));
    assert.equal(sample(after, 'dc_prepare_context_tokens_total'), reported('contextTokens'));
    assert.equal(sample(after, 'dc_prepare_prefix_tokens_total'), reported('tokens'));

    // Temporal's own worker metrics, from the SDK runtime's exporter.
    const temporal = await scrape(`http://127.0.0.1:${temporalPort}/metrics`);
    assert.match(temporal, /^temporal_workflow_task_execution_latency\S* /m);
    assert.match(temporal, /^temporal_activity_execution_latency\S* /m);

    // Structured logs: the fold lines carry the conversation id and the run id. They reach this process through the
    // worker's stderr pipe, after the metrics (a fold applied by the last prepare may not have arrived yet).
    const appliedLines = (): Record<string, unknown>[] =>
      w
        .stderr()
        .split('\n')
        .slice(0, -1) // the last piece may be a line still being written
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .filter((l) => l.msg === 'fold applied' && l.conversationId === id);
    await waitFor(w, () => appliedLines().length >= ok, 'a "fold applied" log line for every applied fold', 10_000);
    const applied = appliedLines();
    assert.equal(applied.length, ok);
    assert.ok(
      applied.every((l) => typeof l.runId === 'string' && l.level === 'info' && typeof l.tokensBefore === 'number')
    );
    assert.ok(!w.stderr().includes('sk-metrics'), 'the API key never reaches a log line');
  });
});

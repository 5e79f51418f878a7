/**
 * Fold latency benchmark (`npm run bench fold-latency`): `prepare` latency over one long corpus session driven
 * through `ConversationClient` on a real dev server, with a model summarizer (the local OpenAI-compatible server
 * through the real `openai` client) that answers every summary request after 2 s, in one run:
 * - no folds (the largest budget, so the session never reaches the trigger): the baseline;
 * - blocking folds (`foldMode: 'blocking'`, the design before background folds): the `prepare` at the trigger waits;
 * - background folds (the default): the fold starts at `prefoldRatio` and is applied at a later `prepare`.
 * Between steps the agent "calls its model" for THINK_MS (a fast model call); only `prepare` is timed.
 * Goal: p99 with background folds ≤ 2× the p99 of the session with no folds.
 * Results: bench/results/fold-latency.{json,md}.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import type { ConversationClient } from '../src/client/conversation-client';
import type { SettingsPatch } from '../src/contract/settings';
import { corpusConversation } from '../test/support/corpus';
import { uniqueConversationId, withConversationWorker } from '../test/support/conversation';
import { testProfiles } from '../test/support/profiles';
import { startOpenAIServer } from '../test/support/openai-server';
import { stopSharedTestEnv } from '../test/support/temporal';

const SESSION = 'mini-swe-agent-deepseek-sqlfluff__sqlfluff-1733';
const BUDGET = 32_000;
const SUMMARY_MS = 2000;
const THINK_MS = 500;

interface Row {
  design: string;
  prepares: number;
  folds: number;
  fallbacks: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

const percentile = (sorted: number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;

/** Drives the session like an agent loop; @returns each `prepare`'s latency, ms. */
async function drive(conv: ConversationClient, messages: readonly unknown[]): Promise<number[]> {
  const latencies: number[] = [];
  let pending: unknown[] = [];
  const prepare = async (): Promise<void> => {
    const t0 = performance.now();
    await conv.prepare(pending);
    latencies.push(performance.now() - t0);
    pending = [];
  };
  for (const message of messages) {
    if ((message as { role?: string }).role !== 'assistant') {
      pending.push(message);
      continue;
    }
    await prepare();
    await new Promise((r) => setTimeout(r, THINK_MS));
    await conv.record([message]);
  }
  if (pending.length > 0) await prepare();
  return latencies;
}

async function main(): Promise<void> {
  Runtime.install({ logger: new DefaultLogger('WARN') });
  const { messages } = corpusConversation(SESSION);
  const server = await startOpenAIServer({ lifetimeMs: 3_600_000 });
  for (let i = 0; i < 100; i++) server.script({ kind: 'slow', ms: SUMMARY_MS });
  const summarizer = { profile: 'bench-chat' };
  const designs: [string, SettingsPatch][] = [
    ['no folds (budget 300k)', { budget: 300_000, summarizer }],
    ['blocking folds', { budget: BUDGET, summarizer, foldMode: 'blocking' }],
    ['background folds', { budget: BUDGET, summarizer, foldMode: 'background' }],
  ];
  const rows: Row[] = [];
  await withConversationWorker(
    async ({ open }) => {
      for (const [design, settings] of designs) {
        const conv = open(uniqueConversationId('bench-fold-latency'), settings);
        const sorted = (await drive(conv, messages)).sort((a, b) => a - b);
        const folds = (await conv.folds()).filter((f) => f.ok);
        rows.push({
          design,
          prepares: sorted.length,
          folds: folds.length,
          fallbacks: folds.filter((f) => f.fallback === true).length,
          p50: percentile(sorted, 0.5),
          p95: percentile(sorted, 0.95),
          p99: percentile(sorted, 0.99),
          max: sorted[sorted.length - 1]!,
        });
        console.log(JSON.stringify(rows[rows.length - 1]));
      }
    },
    {
      profiles: testProfiles(server.baseURL, {
        'bench-chat': { mode: 'chat', baseURL: server.baseURL, apiKeyEnv: 'DC_BENCH_KEY', model: 'small' },
      }),
      summarize: { env: { DC_BENCH_KEY: 'sk-bench' } },
    }
  );
  await server.close();
  await stopSharedTestEnv();
  const base = rows[0]!.p99;
  const background = rows[2]!.p99;
  const dir = join(__dirname, 'results');
  writeFileSync(
    join(dir, 'fold-latency.json'),
    JSON.stringify(
      { session: SESSION, budget: BUDGET, summaryMs: SUMMARY_MS, thinkMs: THINK_MS, node: process.version, rows },
      null,
      2
    ) + '\n'
  );
  const ms = (n: number): string => n.toFixed(0);
  const table = [
    `\`prepare\` latency, one run on the local dev server (${process.version}): ${SESSION} (${rows[0]!.prepares} prepares),`,
    `${BUDGET / 1000}k budget, model summarizer answering after ${SUMMARY_MS / 1000} s, ${THINK_MS} ms agent model call between steps.`,
    '',
    '| design | folds (fallbacks) | p50 (ms) | p95 (ms) | p99 (ms) | max (ms) |',
    '|---|---|---|---|---|---|',
    ...rows.map(
      (r) => `| ${r.design} | ${r.folds} (${r.fallbacks}) | ${ms(r.p50)} | ${ms(r.p95)} | ${ms(r.p99)} | ${ms(r.max)} |`
    ),
    '',
    `p99 background / p99 no folds: **${(background / base).toFixed(2)}×** (goal ≤ 2×); ` +
      `p99 blocking / p99 no folds: ${(rows[1]!.p99 / base).toFixed(2)}×.`,
  ].join('\n');
  writeFileSync(join(dir, 'fold-latency.md'), table + '\n');
  console.log(table);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});

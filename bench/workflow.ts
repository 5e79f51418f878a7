/**
 * Conversation workflow benchmark (`npm run bench workflow`): drives corpus sessions through `ConversationClient` on a
 * real dev server (32k budget, extractive summarizer) and measures, in one run:
 * - agent-step latency through the README's loop (one `prepare` with the model's output; p50 / p95 / max, ms),
 *   folds included;
 * - history bytes the conversation wrote, against what a design that returns the whole context from every update
 *   would write (the sum of the context sizes it would have sent back), the usual way conversations on Temporal hit
 *   the 50 MB history limit.
 * Results: bench/results/workflow.{json,md}.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { temporal } from '@temporalio/proto';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { corpusConversation } from '../test/support/corpus';
import { uniqueConversationId, withConversationWorker } from '../test/support/conversation';
import { driveConversation } from '../test/support/drive';
import { stopSharedTestEnv } from '../test/support/temporal';
import { resultsDir } from './results-dir';

const SESSIONS = [
  'claude-code-spotter-4d5611e5',
  'openhands-sdk-sonnet4-sympy-40c95fc3',
  'mini-swe-agent-deepseek-sqlfluff__sqlfluff-1733',
];
const BUDGET = 32_000;
/** `BENCH_WORKFLOW_SESSIONS` limits the sessions (a quick check of the bench). */
const RUN = SESSIONS.slice(0, Number(process.env.BENCH_WORKFLOW_SESSIONS ?? SESSIONS.length));

interface Row {
  session: string;
  prepares: number;
  folds: number;
  runs: number;
  p50: number;
  p95: number;
  max: number;
  historyBytes: number;
  naiveBytes: number;
  messageBytes: number;
}

const percentile = (sorted: number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
const bytes = (v: unknown): number => Buffer.byteLength(JSON.stringify(v), 'utf8');

async function main(): Promise<void> {
  Runtime.install({ logger: new DefaultLogger('WARN') });
  const rows: Row[] = [];
  await withConversationWorker(async ({ env, open }) => {
    for (const session of RUN) {
      const { messages } = corpusConversation(session);
      const conv = open(uniqueConversationId(session), { budget: BUDGET });
      const latencies: number[] = [];
      let naiveBytes = 0;
      let started = performance.now();
      // driveConversation awaits each prepare; time it from the previous callback (one agent step: the README's
      // loop, the model's output handed back with the next prepare).
      await driveConversation(
        conv,
        messages,
        (prepared) => {
          latencies.push(performance.now() - started);
          naiveBytes += bytes(prepared.messages);
          started = performance.now();
        },
        'output'
      );
      let historyBytes = 0;
      let runs = 0;
      for await (const { history } of env.client.workflow
        .list({ query: `WorkflowId = '${conv.workflowId}'` })
        .intoHistories()) {
        historyBytes += temporal.api.history.v1.History.encode(history!).finish().length;
        runs++;
      }
      const sorted = [...latencies].sort((a, b) => a - b);
      rows.push({
        session,
        prepares: latencies.length,
        folds: (await conv.folds()).length,
        runs,
        p50: percentile(sorted, 0.5),
        p95: percentile(sorted, 0.95),
        max: sorted[sorted.length - 1]!,
        historyBytes,
        naiveBytes,
        messageBytes: bytes(messages),
      });
    }
  });
  await stopSharedTestEnv();
  const dir = resultsDir();
  writeFileSync(
    join(dir, 'workflow.json'),
    JSON.stringify({ budget: BUDGET, node: process.version, rows }, null, 2) + '\n'
  );
  const kb = (n: number): string => `${(n / 1024).toFixed(0)} KB`;
  const table = [
    `Conversation workflow, one run on the local dev server (${process.version}), 32k budget, extractive summarizer.`,
    `Latency = one agent step through the client (one round trip: prepare with the model's output), ms.`,
    '',
    '| session | steps | folds | runs | step p50 / p95 / max (ms) | messages | history written | whole-context-per-turn design | ratio |',
    '|---|---|---|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.session} | ${r.prepares} | ${r.folds} | ${r.runs} | ${r.p50.toFixed(0)} / ${r.p95.toFixed(0)} / ${r.max.toFixed(0)} | ${kb(r.messageBytes)} | ${kb(r.historyBytes)} | ${kb(r.naiveBytes)} | ${(r.naiveBytes / r.historyBytes).toFixed(1)}× |`
    ),
  ].join('\n');
  writeFileSync(join(dir, 'workflow.md'), table + '\n');
  console.log(table);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});

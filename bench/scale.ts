/**
 * Scale (`npm run bench scale`): N conversations at once on one worker process (its workflow cache holding fewer
 * than N for the larger sizes, so evicted conversations replay), each running the README's loop for a few steps (by
 * default 4, 3 and 2 for 100, 1 000 and 3 000: at least one step after the start) in
 * waves (every conversation's step k before any step k + 1), with a bounded number of updates in flight. Measures
 * steps/s, step latency and the worker process's resident memory per cached conversation (Linux /proc). Writes
 * bench/results/scale.json.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConversationClient } from '../src/client/conversation-client';
import { spawnWorker, stopWorker } from '../test/support/spawn-worker';
import { sharedTestEnv } from '../test/support/temporal';
import { latency, stepMessages, timed, type Latency } from './temporal/harness';
import { benchMain } from './temporal/bench-main';

export interface ScaleRow {
  conversations: number;
  cache: number;
  steps: number;
  inFlight: number;
  seconds: number;
  stepsPerSecond: number;
  /** Without the first wave (the workflows' starts). */
  steadyStepsPerSecond: number;
  step: Latency;
  rssIdleMB: number;
  rssEndMB: number;
  rssPeakMB: number;
  /** (RSS at the end − RSS after 10 warm-up conversations) / conversations the cache holds. */
  kbPerCachedConversation: number;
}

const rssMB = (pid: number): number => {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+) kB/);
  return line ? Number(line[1]) / 1024 : NaN;
};

/** Runs `tasks` with at most `limit` at once. */
export async function pool(tasks: (() => Promise<void>)[], limit: number): Promise<void> {
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < tasks.length) await tasks[next++]!();
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, lane));
}

export async function runScale(
  sizes: number[],
  stepsPerSize: number[],
  cache = 500,
  inFlight = 64
): Promise<ScaleRow[]> {
  const env = await sharedTestEnv();
  const rows: ScaleRow[] = [];
  for (const [index, n] of sizes.entries()) {
    const steps = stepsPerSize[index] ?? stepsPerSize[stepsPerSize.length - 1] ?? 2;
    const taskQueue = `scale-${process.pid}-${n}`;
    const worker = await spawnWorker({
      TEMPORAL_ADDRESS: env.address,
      TASK_QUEUE: taskQueue,
      ARCHIVE_DRIVER: 'sqlite',
      ARCHIVE_PATH: join(mkdtempSync(join(tmpdir(), 'dc-scale-')), 'archive.sqlite'),
      MAX_CACHED_WORKFLOWS: String(cache),
    });
    // A few conversations first: the worker's lazy start-up (workflow sandbox, tokenizer tables) is not per conversation.
    const open = (conversationId: string): ConversationClient =>
      new ConversationClient({ client: env.client, conversationId, taskQueue, settings: { budget: 32_000 } });
    await pool(
      Array.from({ length: 10 }, (_, i) => async () => {
        const warm = open(`${taskQueue}-warm-${i}-${Date.now().toString(36)}`);
        for (let k = 0; k < 2; k++) await warm.prepare([stepMessages(k).user]);
      }),
      10
    );
    const rssIdle = rssMB(worker.pid!);
    let rssPeak = rssIdle;
    const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, rssMB(worker.pid!))), 250);
    const convs = Array.from({ length: n }, (_, i) => open(`${taskQueue}-${i}-${Date.now().toString(36)}`));
    const times: number[] = [];
    const started = performance.now();
    let firstWaveEnd = started;
    for (let k = 0; k < steps; k++) {
      const { user, reply } = stepMessages(k);
      await pool(
        convs.map((conv) => async () => {
          times.push(await timed(() => conv.prepare([user], k > 0 ? { output: reply } : {})));
        }),
        inFlight
      );
      if (k === 0) firstWaveEnd = performance.now();
    }
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    const rssEnd = rssMB(worker.pid!);
    await stopWorker(worker);
    const cached = Math.min(n + 10, cache);
    rows.push({
      conversations: n,
      cache,
      steps,
      inFlight,
      seconds,
      stepsPerSecond: (n * steps) / seconds,
      steadyStepsPerSecond: steps > 1 ? (n * (steps - 1)) / (seconds - (firstWaveEnd - started) / 1000) : NaN,
      step: latency(times),
      rssIdleMB: rssIdle,
      rssEndMB: rssEnd,
      rssPeakMB: rssPeak,
      kbPerCachedConversation: ((rssEnd - rssIdle) * 1024) / cached,
    });
    console.log(JSON.stringify(rows[rows.length - 1]));
  }
  return rows;
}

if (require.main === module) {
  const sizes = (process.env.BENCH_SCALE ?? '100,1000,3000').split(',').map(Number);
  const steps = (process.env.BENCH_SCALE_STEPS ?? '4,3,2').split(',').map(Number);
  benchMain('scale.json', async () => ({ rows: await runScale(sizes, steps) }));
}

/**
 * Scale on the real cluster (`bash scripts/cluster.sh start`, then `node --require tsx/cjs bench/cluster-scale.ts`):
 * N conversations (default 1 000, BENCH_CLUSTER_CONVERSATIONS) each running the README's loop for a few steps
 * (default 3, BENCH_CLUSTER_STEPS) in waves, with 64 updates in flight, first on one worker host, then on two (each
 * its own process and network namespace; one task queue; the cluster's PostgreSQL archive). Measures steps/s and
 * step latency, i.e. what a second worker adds. Writes bench/results/cluster-scale.json.
 */
import type { ChildProcess } from 'node:child_process';
import { Client, Connection } from '@temporalio/client';
import { ConversationClient } from '../src/client/conversation-client';
import { clusterEnv, startHostWorker } from '../test/support/cluster/cluster';
import { latency, stepMessages, type Latency } from './temporal/harness';
import { benchMain } from './temporal/bench-main';
import { pool } from './scale';

export interface ClusterScaleRow {
  workers: number;
  conversations: number;
  steps: number;
  inFlight: number;
  seconds: number;
  stepsPerSecond: number;
  /** Without the first wave (the workflows' starts). */
  steadyStepsPerSecond: number;
  step: Latency;
  /** Steps that failed (the client's error after its 120 s deadline); their time counts in the latency. */
  failedSteps: number;
  failureSamples: string[];
}

async function runOnce(
  client: Client,
  workers: number,
  n: number,
  steps: number,
  inFlight: number
): Promise<ClusterScaleRow> {
  const cluster = clusterEnv();
  const taskQueue = `cluster-scale-${process.pid}-${workers}`;
  const children: ChildProcess[] = [];
  for (let host = 1; host <= workers; host++) {
    children.push(
      await startHostWorker(host, {
        TEMPORAL_ADDRESS: cluster.temporalAddress,
        TEMPORAL_NAMESPACE: cluster.namespace,
        TASK_QUEUE: taskQueue,
        ARCHIVE_DRIVER: 'postgres',
        DATABASE_URL: cluster.databaseUrl,
        MAX_CACHED_WORKFLOWS: String(n),
      })
    );
  }
  try {
    const stamp = Date.now().toString(36);
    const open = (id: string) =>
      new ConversationClient({ client, conversationId: id, taskQueue, settings: { budget: 32_000 } });
    // Warm-up: each worker's lazy start (sandbox, tokenizer tables) is not per conversation.
    await pool(
      Array.from(
        { length: 10 * workers },
        (_, i) => async () => void (await open(`${taskQueue}-warm-${i}-${stamp}`).prepare([stepMessages(0).user]))
      ),
      10 * workers
    );
    const convs = Array.from({ length: n }, (_, i) => open(`${taskQueue}-${i}-${stamp}`));
    const times: number[] = [];
    const failures: string[] = [];
    const step = (conv: ConversationClient, k: number) => async () => {
      const { user, reply } = stepMessages(k);
      const started = performance.now();
      try {
        await conv.prepare([user], k > 0 ? { output: reply } : {});
      } catch (err) {
        failures.push(`${conv.workflowId} step ${k}: ${String(err).slice(0, 200)}`);
      }
      times.push(performance.now() - started);
    };
    const started = performance.now();
    let firstWaveEnd = started;
    for (let k = 0; k < steps; k++) {
      await pool(
        convs.map((conv) => step(conv, k)),
        inFlight
      );
      if (k === 0) firstWaveEnd = performance.now();
    }
    const seconds = (performance.now() - started) / 1000;
    return {
      workers,
      conversations: n,
      steps,
      inFlight,
      seconds,
      stepsPerSecond: (n * steps) / seconds,
      steadyStepsPerSecond: (n * (steps - 1)) / (seconds - (firstWaveEnd - started) / 1000),
      step: latency(times),
      failedSteps: failures.length,
      failureSamples: failures.slice(0, 3),
    };
  } finally {
    for (const child of children) child.kill('SIGKILL');
  }
}

if (require.main === module) {
  const n = Number(process.env.BENCH_CLUSTER_CONVERSATIONS ?? 1000);
  const steps = Number(process.env.BENCH_CLUSTER_STEPS ?? 3);
  benchMain(
    'cluster-scale.json',
    async () => {
      const connection = await Connection.connect({ address: clusterEnv().temporalAddress });
      const client = new Client({ connection, namespace: clusterEnv().namespace });
      const rows: ClusterScaleRow[] = [];
      for (const workers of [1, 2]) {
        rows.push(await runOnce(client, workers, n, steps, 64));
        console.log(JSON.stringify(rows[rows.length - 1]));
      }
      await connection.close();
      return { date: new Date().toISOString(), rows };
    },
    (r) =>
      console.log(
        `a second worker: ${(r.rows[1]!.steadyStepsPerSecond / r.rows[0]!.steadyStepsPerSecond).toFixed(2)}× the steady steps/s`
      )
  );
}

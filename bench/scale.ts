/**
 * Scale (`npm run bench scale`): N conversations at once on one worker process (or two, for the second-worker row),
 * each running the README's loop for a few steps in waves (every conversation's step k before any step k + 1) with a
 * bounded number of updates in flight. BENCH_SCALE, BENCH_SCALE_STEPS and BENCH_SCALE_CACHE: by default 100, 1 000
 * and 10 000 conversations, 2, 2 and 1 steps, workflow caches 100, 1 000 and 2 000; BENCH_SCALE_CAP_SECONDS (default
 * 120, 0 for none): a wave begins no more steps after it, so the 10 000 row fits a loaded machine. Beside every wave
 * the bare no-op workflow runs the same wave: the same lanes, one update-with-start per step, on worker processes of
 * its own with the same cache, so the throughput ratio is measured under the same load; and so does the same workflow
 * awaiting one no-op local activity per update, the least a step that archives before it answers can cost; and the same
 * workflow handing its messages to a sink the worker runs after the task (archive and count, nothing awaited), the least
 * a step that archives after it answers can cost. Each side's waves after the first (running workflows, no starts) are
 * also compared alone. Measures steps/s, step
 * latency, the workers' resident memory per cached workflow and the CPU each process (dev server, workers, client)
 * used. Writes bench/results/scale.json.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WithStartWorkflowOperation, type Client } from '@temporalio/client';
import { SqliteArchive } from '../src/archive/sqlite-archive';
import { ConversationClient } from '../src/client/conversation-client';
import { spawnWorker, stopWorker } from '../test/support/spawn-worker';
import { sharedTestEnv } from '../test/support/temporal';
import { writeBenchBundle } from './temporal/bench-bundle-file';
import { latency, stepMessages, type Latency } from './temporal/harness';
import { benchMain } from './temporal/bench-main';
import { childrenNamed, cpuMeter, rssMB, type CpuSplit } from './temporal/proc-sample';
import { noopUpdate } from './temporal/workflows';

/** One side of a row: the conversations, or a baseline workflow beside them. */
export interface ScaleSide {
  /** Seconds of this side's waves only. */
  seconds: number;
  /** Steps that completed: conversations × steps, or fewer when the row's time cap stopped a wave. */
  stepsDone: number;
  /** Steps that threw (their time counts in the latency, not in stepsDone), and the first few errors. */
  failedSteps: number;
  failureSamples: string[];
  stepsPerSecond: number;
  /** Steps/s of each wave (wave 0 starts every workflow; later waves step running ones). */
  waveStepsPerSecond: number[];
  step: Latency;
  /** Summed over this side's worker processes, MB: after the warm-up, at the end, the highest sampled. */
  rssIdleMB: number;
  rssEndMB: number;
  rssPeakMB: number;
  /** The part of the RSS growth that is anonymous memory (heaps, stacks), MB. */
  anonGrowthMB: number;
  /** (RSS at the end − RSS after the warm-up) / workflows the cache holds, KB. */
  kbPerCachedWorkflow: number;
  /** Cores each process used during this side's waves (CPU seconds / wall seconds); `machine` counts everyone. */
  cores: CpuSplit;
}

export interface ScaleRow {
  conversations: number;
  /** Workflow cache size of each worker process. */
  cache: number;
  workers: number;
  steps: number;
  inFlight: number;
  /** Seconds after which a side's wave begins no more steps (BENCH_SCALE_CAP_SECONDS); null when uncapped. */
  capSeconds: number | null;
  conversation: ScaleSide;
  bare: ScaleSide;
  /** The bare workflow with one no-op local activity awaited per update: the least any archiving step costs. */
  localActivity: ScaleSide;
  /**
   * The bare workflow handing each update's messages to a sink the worker runs after the task (archive and count, no
   * activity): the least a step that archives after it answers costs.
   */
  writeBehind: ScaleSide;
  /** Conversation steps/s over bare steps/s, measured wave by wave in the same run. */
  throughputRatio: number;
  /** One-local-activity steps/s over bare steps/s, in the same run. */
  localActivityRatio: number;
  /** Write-behind steps/s over bare steps/s, in the same run. */
  writeBehindRatio: number;
  /** Of the messages the write-behind side's completed steps sent, the share its sink archived (1: all). */
  writeBehindArchived: number;
  /**
   * {@link throughputRatio} over the waves after the first: steps of running workflows, without the starts (where a new
   * conversation also reads the worker's defaults). null with one step per workflow.
   */
  runningRatio: number | null;
  /** The same for the one-local-activity workflow against the bare one. */
  runningLocalActivityRatio: number | null;
  /** The same for the write-behind workflow against the bare one. */
  runningWriteBehindRatio: number | null;
}

/** What bench/results/scale.json holds. */
export interface ScaleResult {
  date: string;
  rows: ScaleRow[];
  secondWorker?: ScaleRow;
}

/**
 * Runs `tasks` with at most `limit` at once; none is begun after `deadline` (performance.now() ms).
 * @default deadline never
 */
export async function pool(tasks: (() => Promise<void>)[], limit: number, deadline = Infinity): Promise<void> {
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < tasks.length && performance.now() < deadline) await tasks[next++]!();
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, lane));
}

interface Side {
  workers: ChildProcess[];
  /** Runs step `k` of workflow `i`. */
  step: (i: number, k: number) => Promise<unknown>;
  times: number[];
  failures: string[];
  seconds: number;
  /** Per wave: wall seconds and steps that completed. */
  waves: { seconds: number; done: number }[];
  cpu: CpuSplit;
  rssIdle: { rss: number; anon: number };
  rssPeak: number;
}

const sumRss = (workers: ChildProcess[]): { rss: number; anon: number } =>
  workers.map((w) => rssMB(w.pid!)).reduce((a, b) => ({ rss: a.rss + b.rss, anon: a.anon + b.anon }));

/** A step of a baseline workflow (`bareUpdateWorkflow` or `localActivityWorkflow`): update-with-start of `noop`. */
function bareStep(
  client: Client,
  workflow: string,
  taskQueue: string,
  workflowId: string,
  k: number
): Promise<unknown> {
  const { user, reply } = stepMessages(k);
  return client.workflow.executeUpdateWithStart(noopUpdate, {
    args: [{ messages: k > 0 ? [reply, user] : [user] }],
    startWorkflowOperation: new WithStartWorkflowOperation(workflow, {
      workflowId,
      taskQueue,
      workflowIdConflictPolicy: 'USE_EXISTING',
    }),
  });
}

/**
 * Reads the write-behind side's archive after its waves: the messages its sink stored for the measured workflows
 * (waiting up to 10 s for sink calls still running) over those their completed steps sent.
 * @returns the share, 1 when every message was archived
 */
async function archivedShare(path: string, queue: string, n: number, side: Side): Promise<number> {
  // Step k sends one message when k = 0 and two after (the reply, then the user turn), as bareStep does.
  const sent = side.waves.reduce((sum, w, k) => sum + w.done * (k === 0 ? 1 : 2), 0);
  const archive = SqliteArchive.open({ path });
  try {
    let stored = 0;
    for (const deadline = Date.now() + 10_000; ; await new Promise((r) => setTimeout(r, 200))) {
      stored = 0;
      for (let i = 0; i < n; i++) stored += (await archive.readAll(`${queue}-${i}`)).length;
      if (stored >= sent || Date.now() > deadline) break;
    }
    return sent === 0 ? 1 : stored / sent;
  } finally {
    await archive.close();
  }
}

async function runRow(
  bundle: string,
  row: { n: number; steps: number; cache: number; workers: number },
  inFlight: number,
  capSeconds: number | undefined
): Promise<ScaleRow> {
  const env = await sharedTestEnv();
  const server = childrenNamed(process.pid, 'temporal');
  const stamp = `${process.pid}-${row.n}-${row.workers}-${Date.now().toString(36)}`;
  const archives = new Map<string, string>();
  const spawn = async (taskQueue: string): Promise<ChildProcess[]> => {
    const archive = join(mkdtempSync(join(tmpdir(), 'dc-scale-')), 'archive.sqlite');
    archives.set(taskQueue, archive);
    const workers: ChildProcess[] = [];
    // Two workers of one side share the archive file, as workers on one host would (SQLite serialises the writes).
    for (let w = 0; w < row.workers; w++) {
      workers.push(
        await spawnWorker({
          TEMPORAL_ADDRESS: env.address,
          TASK_QUEUE: taskQueue,
          ARCHIVE_DRIVER: 'sqlite',
          ARCHIVE_PATH: archive,
          MAX_CACHED_WORKFLOWS: String(row.cache),
          WORKFLOW_BUNDLE: bundle,
          NOOP_ACTIVITY: '1',
        })
      );
    }
    return workers;
  };
  const convQueue = `scale-conv-${stamp}`;
  const bareQueue = `scale-bare-${stamp}`;
  const localQueue = `scale-local-${stamp}`;
  const writeBehindQueue = `scale-behind-${stamp}`;
  const convs = Array.from(
    { length: row.n + 10 * row.workers },
    (_, i) =>
      new ConversationClient({
        client: env.client,
        conversationId: `${convQueue}-${i}`,
        taskQueue: convQueue,
        settings: { budget: 32_000 },
      })
  );
  const sides: Side[] = [];
  let sampler: NodeJS.Timeout | undefined;
  try {
    for (const [queue, step] of [
      [
        convQueue,
        (i: number, k: number) => {
          const { user, reply } = stepMessages(k);
          return convs[i]!.prepare([user], k > 0 ? { output: reply } : {});
        },
      ],
      [
        bareQueue,
        (i: number, k: number) => bareStep(env.client, 'bareUpdateWorkflow', bareQueue, `${bareQueue}-${i}`, k),
      ],
      [
        localQueue,
        (i: number, k: number) => bareStep(env.client, 'localActivityWorkflow', localQueue, `${localQueue}-${i}`, k),
      ],
      [
        writeBehindQueue,
        (i: number, k: number) =>
          bareStep(env.client, 'writeBehindWorkflow', writeBehindQueue, `${writeBehindQueue}-${i}`, k),
      ],
    ] as const) {
      const workers = await spawn(queue);
      sides.push({
        workers,
        step,
        times: [],
        failures: [],
        seconds: 0,
        waves: [],
        cpu: {},
        rssIdle: { rss: 0, anon: 0 },
        rssPeak: 0,
      });
    }
    // Ten workflows per worker first (the last indices): the lazy start-up (sandbox, tokenizer tables) is not per workflow.
    for (const side of sides) {
      const warm = Array.from({ length: 10 * row.workers }, (_, j) => row.n + j);
      for (let k = 0; k < 2; k++)
        await pool(
          warm.map((i) => async () => void (await side.step(i, k))),
          warm.length
        );
      side.rssIdle = sumRss(side.workers);
      side.rssPeak = side.rssIdle.rss;
    }
    sampler = setInterval(() => {
      for (const side of sides) side.rssPeak = Math.max(side.rssPeak, sumRss(side.workers).rss);
    }, 500);
    for (let k = 0; k < row.steps; k++) {
      for (const side of sides) {
        const meter = cpuMeter({ server, worker: side.workers.map((w) => w.pid!) });
        const started = performance.now();
        const before = side.times.length - side.failures.length;
        await pool(
          Array.from({ length: row.n }, (_, i) => async () => {
            const t0 = performance.now();
            try {
              await side.step(i, k);
            } catch (err) {
              side.failures.push(`${i} step ${k}: ${String(err).slice(0, 200)}`);
            }
            side.times.push(performance.now() - t0);
          }),
          inFlight,
          capSeconds === undefined ? Infinity : started + capSeconds * 1000
        );
        const waveSeconds = (performance.now() - started) / 1000;
        side.seconds += waveSeconds;
        side.waves.push({ seconds: waveSeconds, done: side.times.length - side.failures.length - before });
        for (const [name, s] of Object.entries(meter())) side.cpu[name] = (side.cpu[name] ?? 0) + s;
      }
    }
    clearInterval(sampler);
    const writeBehindArchived = await archivedShare(
      archives.get(writeBehindQueue)!,
      writeBehindQueue,
      row.n,
      sides[3]!
    );
    const [conversation, bare, localActivity, writeBehind] = sides.map((side): ScaleSide => {
      const end = sumRss(side.workers);
      // Workflows started: every one when no wave was capped (the first wave starts them all).
      const started = Math.min(row.n, side.times.length) + 10 * row.workers;
      const cached = Math.min(started, row.cache * row.workers);
      return {
        seconds: side.seconds,
        stepsDone: side.times.length - side.failures.length,
        failedSteps: side.failures.length,
        failureSamples: side.failures.slice(0, 3),
        stepsPerSecond: (side.times.length - side.failures.length) / side.seconds,
        waveStepsPerSecond: side.waves.map((w) => w.done / w.seconds),
        step: latency(side.times),
        rssIdleMB: side.rssIdle.rss,
        rssEndMB: end.rss,
        rssPeakMB: Math.max(side.rssPeak, end.rss),
        anonGrowthMB: end.anon - side.rssIdle.anon,
        kbPerCachedWorkflow: ((end.rss - side.rssIdle.rss) * 1024) / cached,
        cores: Object.fromEntries(Object.entries(side.cpu).map(([name, s]) => [name, s / side.seconds])),
      };
    }) as [ScaleSide, ScaleSide, ScaleSide, ScaleSide];
    // Steps/s over the waves after the first, side by side.
    const running = (side: Side): number => {
      const later = side.waves.slice(1);
      return later.reduce((a, w) => a + w.done, 0) / later.reduce((a, w) => a + w.seconds, 0);
    };
    const [convSide, bareSide, localSide, behindSide] = sides as [Side, Side, Side, Side];
    const hasRunning = row.steps > 1;
    return {
      conversations: row.n,
      cache: row.cache,
      workers: row.workers,
      steps: row.steps,
      inFlight,
      capSeconds: capSeconds ?? null,
      conversation,
      bare,
      localActivity,
      writeBehind,
      throughputRatio: conversation.stepsPerSecond / bare.stepsPerSecond,
      localActivityRatio: localActivity.stepsPerSecond / bare.stepsPerSecond,
      writeBehindRatio: writeBehind.stepsPerSecond / bare.stepsPerSecond,
      writeBehindArchived,
      runningRatio: hasRunning ? running(convSide) / running(bareSide) : null,
      runningLocalActivityRatio: hasRunning ? running(localSide) / running(bareSide) : null,
      runningWriteBehindRatio: hasRunning ? running(behindSide) / running(bareSide) : null,
    };
  } finally {
    clearInterval(sampler);
    for (const side of sides) for (const worker of side.workers) await stopWorker(worker);
  }
}

/**
 * Runs the rows on one worker per side, then `second` (if given) again with two worker processes per side.
 * @returns the one-worker rows and the two-worker row.
 */
export async function runScale(
  rows: { n: number; steps: number; cache: number }[],
  second: { n: number; steps: number; cache: number } | undefined,
  opts: { inFlight?: number; capSeconds?: number } = {}
): Promise<Omit<ScaleResult, 'date'>> {
  const inFlight = opts.inFlight ?? 50;
  const bundle = await writeBenchBundle();
  const out: ScaleRow[] = [];
  for (const row of rows) {
    out.push(await runRow(bundle, { ...row, workers: 1 }, inFlight, opts.capSeconds));
    console.log(JSON.stringify(out[out.length - 1]));
  }
  if (!second) return { rows: out };
  const secondWorker = await runRow(bundle, { ...second, workers: 2 }, inFlight, opts.capSeconds);
  console.log(JSON.stringify(secondWorker));
  return { rows: out, secondWorker };
}

if (require.main === module) {
  const list = (name: string, fallback: string): number[] => (process.env[name] ?? fallback).split(',').map(Number);
  const sizes = list('BENCH_SCALE', '100,1000,10000');
  const steps = list('BENCH_SCALE_STEPS', '2,2,1');
  const caches = list('BENCH_SCALE_CACHE', '100,1000,2000');
  const at = (xs: number[], i: number): number => xs[i] ?? xs[xs.length - 1]!;
  const rows = sizes.map((n, i) => ({ n, steps: at(steps, i), cache: at(caches, i) }));
  const capSeconds = Number(process.env.BENCH_SCALE_CAP_SECONDS ?? 120) || undefined;
  // The second-worker row repeats the 1 000 row (or the largest one below it).
  const second = [...rows].reverse().find((r) => r.n <= 1000) ?? rows[0];
  benchMain('scale.json', async (): Promise<ScaleResult> => ({
    date: new Date().toISOString(),
    ...(await runScale(rows, second, { capSeconds })),
  }));
}

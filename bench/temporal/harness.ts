/**
 * What the Temporal benchmarks share: the dev server (the tests' shared one), a worker on the benchmark bundle with
 * the real activities over a given archive, synthetic agent-step messages, and latency statistics.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { bundleWorkflowCode, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { createActivities } from '../../src/activities';
import type { ConversationArchive } from '../../src/archive/archive';
import { SqliteArchive } from '../../src/archive/sqlite-archive';
import { createConversationWorker } from '../../src/server/conversation-worker';
import { workflowBundleOptions } from '../../src/server/workflow-bundle-options';
import { sharedTestEnv } from '../../test/support/temporal';
import { benchActivities } from './activities';
import { writeBehindSinks } from './write-behind-sinks';

let bundle: Promise<WorkflowBundleWithSourceMap> | undefined;

/** The benchmark bundle (conversation workflow + baselines), built once. */
export function benchBundle(): Promise<WorkflowBundleWithSourceMap> {
  bundle ??= bundleWorkflowCode({
    workflowsPath: require.resolve('./workflows'),
    ...workflowBundleOptions,
    logger: { trace() {}, debug() {}, info() {}, warn() {}, error: console.error, log() {} },
  });
  return bundle;
}

/** A fresh SQLite archive file, as the worker keeps it by default. */
export function sqliteArchive(): SqliteArchive {
  return SqliteArchive.open({ path: join(mkdtempSync(join(tmpdir(), 'dc-bench-')), 'archive.sqlite') });
}

/** A SQLite archive in memory: what a `prepare` costs without a durable archive write. */
export function memoryArchive(): SqliteArchive {
  return SqliteArchive.open({ path: ':memory:' });
}

let queues = 0;

/** Runs `fn` while one worker per archive polls its own task queue; `fn` gets the queues in the same order. */
export async function withBenchWorkers<T>(
  archives: ConversationArchive[],
  fn: (env: TestWorkflowEnvironment, taskQueues: string[]) => Promise<T>
): Promise<T> {
  const env = await sharedTestEnv();
  const workflowBundle = await benchBundle();
  const taskQueues = archives.map(() => `bench-${process.pid}-${++queues}`);
  const workers = await Promise.all(
    archives.map((archive, i) =>
      createConversationWorker({
        connection: env.nativeConnection,
        namespace: env.namespace ?? 'default',
        taskQueue: taskQueues[i]!,
        workflows: { workflowBundle },
        activities: { ...createActivities({ archive }), ...benchActivities },
        sinks: writeBehindSinks(archive),
      })
    )
  );
  const run = async (k: number): Promise<T> =>
    k === workers.length ? fn(env, taskQueues) : workers[k]!.runUntil(() => run(k + 1));
  return run(0);
}

/** A user message and an assistant reply of an ordinary agent step (~40 tokens each, varying with `step`). */
export function stepMessages(step: number): { user: unknown; reply: unknown } {
  const words = ['check', 'the', 'failing', 'test', 'in', `src/module${step % 17}.ts`, 'and', 'report', 'back'];
  return {
    user: { role: 'user', content: `Step ${step}: ${words.join(' ')} ${'with details '.repeat(6)}` },
    reply: { role: 'assistant', content: `Done with step ${step}: ${'the change looks fine '.repeat(6)}` },
  };
}

/** p50 / p95 / p99 / max of samples in ms. */
export interface Latency {
  n: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

export function latency(samples: readonly number[]): Latency {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number): number => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN;
  return { n: sorted.length, p50: at(0.5), p95: at(0.95), p99: at(0.99), max: sorted[sorted.length - 1] ?? NaN };
}

/** @returns ms `fn` took. */
export async function timed(fn: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await fn();
  return performance.now() - started;
}

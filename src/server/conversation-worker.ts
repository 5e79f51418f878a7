/**
 * The one place a conversation worker is built: the production worker (`durable-compaction worker` / `dev`), the
 * tests, the crash trials, the cluster suite and the benchmarks all call {@link createConversationWorker}, so what
 * they measure is the production wiring (workflow source, sinks, data converter, tuning), not a copy of it.
 */
import type { DataConverter } from '@temporalio/common';
import {
  Worker,
  type InjectedSinks,
  type NativeConnection,
  type WorkflowBundleWithSourceMap,
} from '@temporalio/worker';
import type { Sinks } from '@temporalio/workflow';
import type { Config } from '../config/schema';
import { schema } from '../config/schema';
import type { ConversationMetrics } from '../metrics/conversation-metrics';
import { conversationSinks } from '../metrics/sinks';
import { workflowSource, type WorkflowSource } from './workflow-source';

/** The worker's tuning: the `worker:` section of the configuration. */
export type WorkerTuning = Config['worker'];

/** The `worker:` section's documented defaults. */
export function defaultWorkerTuning(): WorkerTuning {
  const entries = Object.entries(schema.worker).map(([key, setting]) => [key, setting.default]);
  return Object.fromEntries(entries) as WorkerTuning;
}

/** Options of {@link createConversationWorker}. */
export interface ConversationWorkerOptions {
  connection: NativeConnection;
  namespace: string;
  taskQueue: string;
  /** What `createActivities(deps)` built, plus any activities of the caller's own workflows. */
  activities: object;
  /** @default the `worker:` section's defaults ({@link defaultWorkerTuning}) */
  tuning?: Partial<WorkerTuning>;
  /** @default the SDK's (no codec) */
  dataConverter?: DataConverter;
  /**
   * The workflow code. @default `workflowSource(dataConverter)`: the prebuilt bundle when compiled, the sources
   * (with the workflow interceptors) when running through tsx. Tests and benchmarks pass a bundle built once per run.
   */
  workflows?: WorkflowSource | { workflowBundle: WorkflowBundleWithSourceMap };
  /** Receives the workflows' observations and the cache size. @default none (the sinks drop them) */
  metrics?: ConversationMetrics;
  /** More sinks, for the workflows of a custom bundle (the benchmarks' baselines). @default none */
  sinks?: InjectedSinks<Sinks>;
}

/**
 * Builds a worker that runs conversations (it does not start polling: call `run()` or `runUntil()`).
 * @returns the SDK worker.
 * @throws WorkflowBundleMissingError when compiled and the prebuilt bundle is missing; the SDK's errors otherwise.
 */
export async function createConversationWorker(options: ConversationWorkerOptions): Promise<Worker> {
  const tuning = { ...defaultWorkerTuning(), ...options.tuning };
  const dataConverter = options.dataConverter ?? {};
  const worker = await Worker.create({
    connection: options.connection,
    namespace: options.namespace,
    taskQueue: options.taskQueue,
    ...(options.workflows ?? workflowSource(dataConverter)),
    dataConverter,
    activities: options.activities,
    sinks: { ...options.sinks, ...conversationSinks(options.metrics) },
    maxCachedWorkflows: tuning.maxCachedWorkflows,
    maxConcurrentWorkflowTaskExecutions: tuning.maxConcurrentWorkflowTaskExecutions,
    maxConcurrentActivityTaskExecutions: tuning.maxConcurrentActivityTaskExecutions,
    maxConcurrentLocalActivityExecutions: tuning.maxConcurrentLocalActivityExecutions,
    // Heartbeats reach the server within this, so a summarize heartbeat timeout of a few seconds holds.
    maxHeartbeatThrottleInterval: tuning.heartbeatThrottleMs,
    workflowThreadPoolSize: tuning.workflowThreads,
    stickyQueueScheduleToStartTimeout: tuning.stickyScheduleToStartMs,
  });
  options.metrics?.setCachedSource(() => worker.getStatus().numCachedWorkflows);
  return worker;
}

import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { bundleWorkflowCode, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { assertNoTaskFailures } from './task-failures';
import { createConversationWorker } from '../../src/server/conversation-worker';
import { devServerSearchAttributeArgs } from '../../src/visibility/search-attributes';
import { workflowBundleOptions } from '../../src/server/workflow-bundle-options';

/** The Temporal CLI installed by scripts/setup.sh (or `$TEMPORAL_CLI_PATH`), as an absolute path. */
export function temporalCliPath(): string {
  const path = resolve(process.env.TEMPORAL_CLI_PATH ?? resolve(__dirname, '..', '..', '.tools', 'temporal'));
  if (!existsSync(path)) throw new Error(`Temporal CLI not found at ${path}: run 'bash scripts/setup.sh' first`);
  return path;
}

let env: Promise<TestWorkflowEnvironment> | undefined;
let bundle: Promise<WorkflowBundleWithSourceMap> | undefined;

/**
 * One real dev server (the installed CLI, in-memory SQLite) shared by every test of the run, started on first use.
 * Core allows the server 5 s to come up, which a loaded 2-core machine can miss, so a failed start is tried again.
 */
export function sharedTestEnv(): Promise<TestWorkflowEnvironment> {
  env ??= (async () => {
    let lastError: unknown;
    for (let attempt = 1; attempt <= 3; attempt++) {
      try {
        return await TestWorkflowEnvironment.createLocal({
          server: {
            executable: { type: 'existing-path', path: temporalCliPath() },
            extraArgs: [
              '--dynamic-config-value',
              'frontend.enableExecuteMultiOperation=true',
              // A deleted execution goes once its queues' ack levels pass its close, which they record every 30 s by
              // default: each deletion the tests wait for took about 31 s, about 4 s at 1 s.
              '--dynamic-config-value',
              'history.transferProcessorUpdateAckInterval="1s"',
              '--dynamic-config-value',
              'history.visibilityProcessorUpdateAckInterval="1s"',
              ...devServerSearchAttributeArgs(),
            ],
          },
        });
      } catch (err) {
        lastError = err;
      }
    }
    throw lastError;
  })();
  return env;
}

/**
 * Tears the shared server down (mocha root hook), after checking that no workflow run on it, from any test, has a
 * `WorkflowTaskFailed` event (see `task-failures.ts`).
 * @throws Error naming each workflow with a failed task (the server is torn down either way).
 */
export async function stopSharedTestEnv(): Promise<void> {
  if (!env) return;
  const testEnv = await env;
  env = undefined;
  try {
    // Its own connection: a history page holding megabyte messages is larger than gRPC's default 4 MB.
    const connection = await Connection.connect({
      address: testEnv.address,
      channelArgs: { 'grpc.max_receive_message_length': 512 * 1_048_576 },
    });
    try {
      const client = new Client({ connection, namespace: testEnv.namespace ?? 'default' });
      const runs = await assertNoTaskFailures(client);
      process.stderr.write(`checked ${runs} workflow runs of this test run: no WorkflowTaskFailed event\n`);
    } finally {
      await connection.close();
    }
  } finally {
    await testEnv.teardown();
  }
}

/** The project's workflows bundled once per run (bundling takes seconds). */
export function workflowBundle(): Promise<WorkflowBundleWithSourceMap> {
  bundle ??= bundleWorkflowCode({
    workflowsPath: require.resolve('./workflows'),
    ...workflowBundleOptions,
    logger: quietLogger,
  });
  return bundle;
}

const quietLogger = { trace() {}, debug() {}, info() {}, warn() {}, error: console.error, log() {} };

let queues = 0;

/** What a test's worker runs: the activities (default none), and a task queue of its own unless given. */
export interface TestWorkerOptions {
  activities?: object;
  taskQueue?: string;
}

/**
 * Runs `fn` while a worker built by the production factory polls a fresh task queue on the shared server, then shuts
 * the worker down.
 * @returns what `fn` returns.
 */
export async function withWorker<T>(
  options: TestWorkerOptions,
  fn: (ctx: { env: TestWorkflowEnvironment; taskQueue: string }) => Promise<T>
): Promise<T> {
  const testEnv = await sharedTestEnv();
  const taskQueue = options.taskQueue ?? `test-${process.pid}-${++queues}`;
  const worker = await createConversationWorker({
    connection: testEnv.nativeConnection,
    namespace: testEnv.namespace ?? 'default',
    taskQueue,
    workflows: { workflowBundle: await workflowBundle() },
    activities: options.activities ?? {},
  });
  return worker.runUntil(fn({ env: testEnv, taskQueue }));
}

/** Worker processes a test can kill with SIGKILL, and a polling wait, for crash tests. */
import { strict as assert } from 'node:assert';
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { workflowBundleOptions } from '../../src/server/workflow-bundle-options';
import { bundleWorkflowCode } from '@temporalio/worker';
import { SqliteArchive } from '../../src/archive/sqlite-archive';
import type { ConversationClient } from '../../src/client/conversation-client';
import { conversationWorkflowId } from '../../src/contract/definitions';

const root = resolve(__dirname, '..', '..');

/** A worker process: `ready` resolves once it polls, rejects if it exits first (say, killed while it starts). */
export interface WorkerSlot {
  child: ChildProcess;
  spawnedAt: number;
  readyAt: number | undefined;
  ready: Promise<void>;
}

/**
 * Spawns `test/support/worker-process.ts` in its own process with `env` added to this process's environment.
 * `DC_WORKER_NODE_FLAGS` (in either) adds Node flags to the worker's command line, space-separated: Node refuses
 * some, such as `--cpu-prof`, in `NODE_OPTIONS` (see docs/development.md, profiling a worker).
 * @param opts.stderr where the worker's stderr goes. @default 'inherit'
 * @returns at once: the child, and when it polls.
 */
export function spawnWorkerSlot(env: Record<string, string>, opts: { stderr?: 'inherit' | 'ignore' } = {}): WorkerSlot {
  const childEnv = { ...process.env, ...env };
  const flags = (childEnv.DC_WORKER_NODE_FLAGS ?? '').split(' ').filter((f) => f !== '');
  const child = spawn(process.execPath, [...flags, '--require', 'tsx/cjs', 'test/support/worker-process.ts'], {
    cwd: root,
    env: childEnv,
    stdio: ['ignore', 'pipe', opts.stderr ?? 'inherit'],
  });
  const slot: WorkerSlot = { child, spawnedAt: Date.now(), readyAt: undefined, ready: Promise.resolve() };
  slot.ready = new Promise((ready, reject) => {
    child.once('exit', (code, signal) => reject(new Error(`worker exited early with ${code ?? signal}`)));
    child.stdout.on('data', (chunk: Buffer) => {
      if (slot.readyAt === undefined && chunk.toString().includes('worker ready')) {
        slot.readyAt = Date.now();
        ready();
      }
    });
  });
  slot.ready.catch(() => undefined);
  return slot;
}

/**
 * Starts `test/support/worker-process.ts` in its own process with `env` added to this process's environment.
 * @returns the child once it polls its task queue.
 */
export async function startWorker(env: Record<string, string>): Promise<ChildProcess> {
  const slot = spawnWorkerSlot(env);
  await slot.ready;
  return slot.child;
}

/**
 * Bundles the workflows into `dir/workflows.js`, for the workers' `WORKFLOW_BUNDLE`: a restarted worker then polls
 * within a second or two instead of bundling again.
 * @returns the bundle's path.
 */
export async function writeWorkflowBundle(dir: string): Promise<string> {
  const bundle = await bundleWorkflowCode({
    workflowsPath: require.resolve('../../src/workflows'),
    ...workflowBundleOptions,
    logger: quiet,
  });
  const path = join(dir, 'workflows.js');
  writeFileSync(path, bundle.code);
  return path;
}

const quiet = { trace() {}, debug() {}, info() {}, warn() {}, error() {}, log() {} };

/** Kills a worker process with SIGKILL and waits until it is gone. */
export async function killWorker(worker: ChildProcess): Promise<void> {
  if (worker.exitCode !== null || worker.signalCode !== null) return;
  const exited = new Promise((r) => worker.once('exit', r));
  worker.kill('SIGKILL');
  await exited;
}

/** Polls `check` every 100 ms. @throws Error naming `what` after `timeoutMs`. */
export async function waitFor(what: string, check: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * After a crash during a fold: asserts the summary was asked for twice (the hung call, then once on the new worker),
 * exactly one fold was applied (state and archive), and the SQLite archive at `archivePath` holds exactly `sent`, in
 * order, under the conversation's workflow id.
 */
export async function assertFoldedOnce(
  conv: ConversationClient,
  summaryRequests: number,
  archivePath: string,
  conversationId: string,
  sent: readonly unknown[]
): Promise<void> {
  assert.equal(summaryRequests, 2, 'the summary was asked for again on the new worker, once');
  const folds = await conv.folds();
  assert.deepEqual(
    folds.map((f) => [f.number, f.ok]),
    [[1, true]],
    'exactly one fold applied'
  );
  const archive = SqliteArchive.open({ path: archivePath });
  const key = conversationWorkflowId(conversationId);
  try {
    assert.deepEqual(
      (await archive.readAll(key)).map((a) => a.message),
      sent
    );
    assert.equal((await archive.folds(key)).length, 1);
  } finally {
    await archive.close();
  }
}

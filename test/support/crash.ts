/** Worker processes a test can kill with SIGKILL, and a polling wait, for crash tests. */
import { strict as assert } from 'node:assert';
import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { SqliteArchive } from '../../src/archive/sqlite-archive';
import type { ConversationClient } from '../../src/client/conversation-client';
import { conversationWorkflowId } from '../../src/contract/definitions';

const root = resolve(__dirname, '..', '..');

/**
 * Starts `test/support/worker-process.ts` in its own process with `env` added to this process's environment.
 * @returns the child once it polls its task queue.
 */
export function startWorker(env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--require', 'tsx/cjs', 'test/support/worker-process.ts'], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolveReady, reject) => {
    child.once('exit', (code) => reject(new Error(`worker exited early with ${code}`)));
    child.stdout.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('worker ready')) resolveReady(child);
    });
  });
}

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

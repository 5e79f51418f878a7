import type { ChildProcess } from 'node:child_process';

/** Worker processes for tests and benchmarks: start them with `startWorker` (./crash), stop them here. */
export { startWorker as spawnWorker } from './crash';

/** Stops a spawned worker and waits for it to exit. */
export async function stopWorker(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

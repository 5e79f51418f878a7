/** `npm start`'s worker (src/worker.ts) in its own process, for tests of the real entry point. */
import { spawn, type ChildProcess, type ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';
import { resolve } from 'node:path';

const root = resolve(__dirname, '..', '..');

/** A started worker process and everything it printed so far. */
export interface StartedWorker {
  child: ChildProcess;
  output: () => string;
}

/**
 * Starts src/worker.ts with `env` added to this process's environment.
 * @returns once it prints that it polls its task queue.
 * @throws Error with its output when it exits first or does not poll within `timeoutMs` (default 60 s).
 */
export function startNpmWorker(env: Record<string, string>, timeoutMs = 60_000): Promise<StartedWorker> {
  const child = spawnWorkerEntry(env);
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  return new Promise((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`worker did not start: ${out}`)), timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`worker exited with ${code}: ${out}`));
    });
    const check = setInterval(() => {
      if (out.includes('polling task queue')) {
        clearInterval(check);
        clearTimeout(timer);
        child.removeAllListeners('exit');
        ok({ child, output: () => out });
      }
    }, 100);
  });
}

/** @returns src/worker.ts started with `env` added to this process's environment, its output piped. */
export function spawnWorkerEntry(env: Record<string, string>): ChildProcessByStdio<null, Readable, Readable> {
  return spawn(process.execPath, ['--require', 'tsx/cjs', 'src/worker.ts'], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

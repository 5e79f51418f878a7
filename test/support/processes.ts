import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { resolve } from 'node:path';

/** The checkout's root folder. */
export const repoRoot = resolve(__dirname, '..', '..');

/** @returns a TCP port nothing listens on right now (the OS picks it). */
export function unusedPort(): Promise<number> {
  return new Promise((done, failed) => {
    const probe = createServer();
    probe.once('error', failed);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => done(port));
    });
  });
}

/** A child process with everything it printed so far. */
export interface Spawned {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code once the process ends. */
  exit: Promise<number | null>;
}

/** Runs a TypeScript entry point of this repository (through tsx) with extra environment variables. */
export function spawnTs(entry: string, args: string[], env: Record<string, string>): Spawned {
  return spawnNode(['--require', 'tsx/cjs', entry, ...args], env);
}

/**
 * Runs node with `nodeArgs` (say, compiled JavaScript) in `cwd` with extra environment variables, or with only
 * PATH, HOME and `env` when `inherit` is false.
 */
export function spawnNode(nodeArgs: string[], env: Record<string, string>, cwd = repoRoot, inherit = true): Spawned {
  return spawnCommand(process.execPath, nodeArgs, env, cwd, inherit);
}

/** Runs `command` (say, an installed package's bin) as {@link spawnNode} runs node. */
export function spawnCommand(
  command: string,
  args: string[],
  env: Record<string, string>,
  cwd: string,
  inherit: boolean
): Spawned {
  const base = inherit ? process.env : { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' };
  const child = spawn(command, args, {
    cwd,
    env: { ...base, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  const exit = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  return { child, stdout: () => out, stderr: () => err, exit };
}

/**
 * Waits until `ready()` holds, polling every 100 ms.
 * @throws Error with the process output when it exits first or `ms` pass.
 */
export async function waitFor(p: Spawned, ready: () => boolean, what: string, ms = 90_000): Promise<void> {
  const deadline = Date.now() + ms;
  let ended = false;
  void p.exit.then(() => (ended = true));
  while (!ready()) {
    if (ended || Date.now() > deadline) {
      throw new Error(`${what}: ${ended ? 'the process exited' : 'timed out'}\n${p.stdout()}\n${p.stderr()}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Runs the CLI (`src/cli/main.ts`) to completion. @returns its exit code and output. */
export async function runCli(
  args: string[],
  env: Record<string, string> = {},
  input?: string
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const p = spawnTs('src/cli/main.ts', args, env);
  p.child.stdin!.end(input ?? '');
  const code = await p.exit;
  return { code, stdout: p.stdout(), stderr: p.stderr() };
}

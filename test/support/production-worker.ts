/**
 * The production worker (`src/worker.ts`, as `npm start` runs it) in its own process with a configuration file the
 * test writes, its stdout and stderr captured. Only what the test passes reaches its environment, plus PATH and HOME.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(__dirname, '..', '..');

/** A running production worker. */
export interface ProductionWorker {
  /** Everything it wrote to stdout and stderr so far. */
  output: () => string;
  /** SIGTERM, then waits for it to exit. */
  stop: () => Promise<void>;
}

/**
 * Writes `config` (YAML text) to `<dir>/temporal.yaml` and starts the worker with it; resolves once it polls.
 * @throws when the worker exits before it polls (the message holds its output).
 */
export async function startProductionWorker(
  dir: string,
  config: string,
  env: Record<string, string>
): Promise<ProductionWorker> {
  const configPath = join(dir, 'temporal.yaml');
  writeFileSync(configPath, config);
  const child: ChildProcess = spawn(process.execPath, ['--require', 'tsx/cjs', 'src/worker.ts'], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', DC_CONFIG: configPath, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  await new Promise<void>((ready, fail) => {
    child.once('exit', (code) => fail(new Error(`worker exited with ${code} before polling:\n${output}`)));
    child.stdout!.on('data', () => {
      if (output.includes('worker polling task queue')) ready();
    });
  });
  return {
    output: () => output,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Options of {@link chatWorkerConfig}. */
export interface ChatWorkerConfigOptions {
  address: string;
  taskQueue: string;
  /** The SQLite archive goes to `<dir>/archive.sqlite`. */
  dir: string;
  /** The default profile: chat mode, model `small`, on `baseURL`, key in the variable `apiKeyEnv`. */
  baseURL: string;
  apiKeyEnv: string;
  /** Further YAML lines (sections). */
  extra?: string[];
}

/** @returns a temporal.yaml for a worker on `address`/`taskQueue` whose default profile is a chat model. */
export function chatWorkerConfig(o: ChatWorkerConfigOptions): string {
  return [
    `temporal: { address: '${o.address}', taskQueue: '${o.taskQueue}' }`,
    `archive: { driver: sqlite, path: '${join(o.dir, 'archive.sqlite')}' }`,
    `summarizer: { mode: chat, model: small, baseURL: '${o.baseURL}', apiKeyEnv: ${o.apiKeyEnv} }`,
    ...(o.extra ?? []),
    '',
  ].join('\n');
}

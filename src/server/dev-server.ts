import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Connection } from '@temporalio/client';
import { devServerSearchAttributeArgs } from '../visibility/search-attributes';
import { isListening, waitForPort } from './port';

/** Where and how to run the embedded dev server. */
export interface DevServerOptions {
  cliPath: string;
  ip: string;
  port: number;
  uiPort: number;
  namespace: string;
  dataDir: string;
  logLevel: string;
  /** How long to wait for the server to listen. @default 30000 */
  startTimeoutMs?: number;
  /** Codec server the Web UI decodes payloads with (when payloads are encrypted). @default none */
  uiCodecEndpoint?: string;
}

/** A running dev server, started by this process or found already listening. */
export interface DevServerHandle {
  address: string;
  uiUrl: string;
  startedHere: boolean;
  /** Stops the server if this process started it; otherwise does nothing. */
  stop(): Promise<void>;
}

/** The dev server could not be started or reused; the message says what to do. */
export class DevServerError extends Error {
  override readonly name = 'DevServerError';
}

/**
 * Reuses a Temporal server already listening on ip:port, or starts `temporal server start-dev` with a SQLite file in
 * `dataDir` (state survives restarts), the Web UI on `uiPort` and `namespace` created. A lock file keeps two
 * launches at once from starting two servers: the second waits for the first one's server and reuses it.
 * @throws DevServerError when the port holds something that is not Temporal, or the server does not come up.
 */
export async function ensureDevServer(opts: DevServerOptions): Promise<DevServerHandle> {
  const address = `${opts.ip}:${opts.port}`;
  const uiUrl = `http://${opts.ip === '0.0.0.0' ? '127.0.0.1' : opts.ip}:${opts.uiPort}`;
  const reuse = async (): Promise<DevServerHandle> => {
    await assertTemporal(address, opts.namespace);
    return { address, uiUrl, startedHere: false, stop: async () => {} };
  };
  if (await isListening(opts.ip, opts.port)) return reuse();

  const dataDir = resolve(opts.dataDir);
  mkdirSync(dataDir, { recursive: true });
  const lock = join(dataDir, 'dev-server.lock');
  if (!takeLock(lock)) {
    // Another launch holds the lock and is starting the server right now: wait for it and share it.
    await waitForPort(opts.ip, opts.port, opts.startTimeoutMs ?? 30_000).catch((err: Error) => {
      throw new DevServerError(`${err.message}; another launch holds ${lock} (remove it if no launch is running)`);
    });
    return reuse();
  }
  const cli = resolve(opts.cliPath);
  if (!existsSync(cli)) {
    releaseLock(lock);
    throw new DevServerError(
      `Temporal CLI not found at ${cli}: run 'bash scripts/setup.sh' (or set TEMPORAL_CLI_PATH)`
    );
  }
  const args = [
    'server',
    'start-dev',
    '--ip',
    opts.ip,
    '--port',
    String(opts.port),
    '--ui-port',
    String(opts.uiPort),
    '--namespace',
    opts.namespace,
    '--db-filename',
    join(dataDir, 'temporal.db'),
    '--log-level',
    opts.logLevel,
    '--dynamic-config-value',
    'frontend.enableServerVersionCheck=false',
    '--dynamic-config-value',
    'frontend.enableUpdateWorkflowExecution=true',
    '--dynamic-config-value',
    'frontend.enableExecuteMultiOperation=true',
    ...(opts.uiCodecEndpoint ? ['--ui-codec-endpoint', opts.uiCodecEndpoint] : []),
    // The conversations' search attributes, so the UI and list queries can filter on tokens, folds and state.
    ...devServerSearchAttributeArgs(),
  ];
  const log = openSync(join(dataDir, 'temporal-server.log'), 'a');
  const watchdog = join(__dirname, '..', '..', 'scripts', 'dev-server-watchdog.sh');
  const child: ChildProcess = spawn('bash', [watchdog, String(process.pid), cli, ...args], {
    stdio: ['ignore', log, log],
  });
  closeSync(log);
  let exited = false;
  child.once('exit', () => (exited = true));
  try {
    await waitForPort(opts.ip, opts.port, opts.startTimeoutMs ?? 30_000, () => !exited);
    await assertTemporal(address, opts.namespace);
  } catch (err) {
    child.kill('SIGTERM');
    releaseLock(lock);
    throw new DevServerError(`${(err as Error).message} (see ${join(dataDir, 'temporal-server.log')})`);
  }
  const stop = async (): Promise<void> => {
    if (!exited) {
      const gone = new Promise<void>((r) => child.once('exit', () => r()));
      child.kill('SIGTERM');
      await gone;
    }
    releaseLock(lock);
  };
  return { address, uiUrl, startedHere: true, stop };
}

/** Fails unless address answers as a Temporal frontend serving `namespace`. */
async function assertTemporal(address: string, namespace: string): Promise<void> {
  let connection: Connection | undefined;
  try {
    connection = await Connection.connect({ address, connectTimeout: 5_000 });
    await connection.workflowService.describeNamespace({ namespace });
  } catch (err) {
    throw new DevServerError(
      `${address} is in use but does not answer as a Temporal server with namespace '${namespace}': ${(err as Error).message}. ` +
        `Free the port, or set devServer.port / DEV_SERVER_PORT to another one.`
    );
  } finally {
    await connection?.close();
  }
}

/** Creates the lock file exclusively; a lock left by a dead process is taken over. */
function takeLock(path: string): boolean {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(path, String(process.pid), { flag: 'wx' });
      return true;
    } catch {
      const owner = Number(readFileSync(path, 'utf8'));
      if (Number.isInteger(owner) && owner > 0 && isAlive(owner)) return false;
      try {
        unlinkSync(path);
      } catch {
        /* another launch removed it first */
      }
    }
  }
  return false;
}

function releaseLock(path: string): void {
  try {
    if (readFileSync(path, 'utf8') === String(process.pid)) unlinkSync(path);
  } catch {
    /* already gone */
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * The cluster `scripts/cluster.sh start` brought up, driven from a test: its environment file, the script's fault
 * commands (kill and start a service, crash-restart a PostgreSQL, cut and restore a host's link), and worker
 * processes inside the worker hosts' network namespaces.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { repoRoot } from '../processes';

const run = promisify(execFile);

/** A Temporal service of the cluster, each its own process. */
export type TemporalService = 'history' | 'matching' | 'frontend' | 'worker';
/** A PostgreSQL of the cluster: Temporal's persistence, or the conversation archive. */
export type ClusterDatabase = 'temporal' | 'archive';
/** What a worker host can be cut off from. */
export type HostLink = 'frontend' | 'archive';

/** What `scripts/cluster.sh start` wrote to `$DC_CLUSTER_DIR/env`. */
export interface ClusterEnv {
  dir: string;
  hosts: number;
  temporalAddress: string;
  namespace: string;
  databaseUrl: string;
  /** The address the worker hosts reach this host's test servers on (the model server). */
  modelIp: string;
}

/**
 * Reads the running cluster's environment file (`$DC_CLUSTER_ENV`, else `$DC_CLUSTER_DIR/env`, else the script's
 * default folder).
 * @throws Error saying how to start a cluster when there is none.
 */
export function clusterEnv(): ClusterEnv {
  const path =
    process.env.DC_CLUSTER_ENV ??
    join(process.env.DC_CLUSTER_DIR ?? join(process.env.TMPDIR ?? '/tmp', 'dc-cluster'), 'env');
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    throw new Error(`no cluster environment at ${path}: run 'bash scripts/cluster.sh start' (as root) first`);
  }
  const values = new Map(
    text
      .split('\n')
      .filter((l) => l.includes('='))
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)] as const)
  );
  const get = (name: string): string => {
    const v = values.get(name);
    if (!v) throw new Error(`${path} has no ${name}`);
    return v;
  };
  return {
    dir: get('DC_CLUSTER_DIR'),
    hosts: Number(get('DC_CLUSTER_HOSTS')),
    temporalAddress: get('TEMPORAL_ADDRESS'),
    namespace: get('TEMPORAL_NAMESPACE'),
    databaseUrl: get('DATABASE_URL'),
    modelIp: get('DC_CLUSTER_MODEL_IP'),
  };
}

/** Runs `scripts/cluster.sh` with `args` against the cluster of `env`. @throws Error with its output when it fails. */
async function script(env: ClusterEnv, ...args: string[]): Promise<void> {
  try {
    await run('bash', ['scripts/cluster.sh', ...args], {
      cwd: repoRoot,
      env: { ...process.env, DC_CLUSTER_DIR: env.dir, DC_CLUSTER_HOSTS: String(env.hosts) },
      timeout: 120_000,
    });
  } catch (err) {
    const e = err as { stderr?: string; message: string };
    throw new Error(`cluster.sh ${args.join(' ')} failed: ${e.stderr ?? e.message}`);
  }
}

/** The fault commands of `scripts/cluster.sh`. Each resolves once the part is down, or up and listening again. */
export const clusterFaults = {
  kill: (env: ClusterEnv, service: TemporalService) => script(env, 'kill', service),
  start: (env: ClusterEnv, service: TemporalService) => script(env, 'start-service', service),
  /** Crash-stops the database (no checkpoint) and starts it again after `downSeconds`. */
  restartDatabase: (env: ClusterEnv, db: ClusterDatabase, downSeconds: number) =>
    script(env, 'restart-db', db, downSeconds.toFixed(1)),
  cut: (env: ClusterEnv, host: number, link: HostLink) => script(env, 'cut', String(host), link),
  restore: (env: ClusterEnv, host: number, link: HostLink) => script(env, 'restore', String(host), link),
};

/**
 * Starts `test/support/worker-process.ts` inside worker host `host`'s network namespace (`ip netns exec` runs node
 * itself, so the child's PID is the worker's).
 * @returns the child once it polls its task queue. @throws Error with its output when it exits first.
 */
export function startHostWorker(host: number, env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(
    'ip',
    ['netns', 'exec', `dc-host${host}`, process.execPath, '--require', 'tsx/cjs', 'test/support/worker-process.ts'],
    { cwd: repoRoot, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] }
  );
  let output = '';
  child.stderr.on('data', (c: Buffer) => (output = (output + c.toString()).slice(-4000)));
  return new Promise((ready, fail) => {
    child.once('exit', (code) =>
      fail(new Error(`worker on host ${host} exited with ${code} before polling:\n${output}`))
    );
    child.stdout.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('worker ready')) ready(child);
    });
  });
}

/**
 * The chaos suite's faults, one at a time at random moments: each kind, what it does to the cluster, and whether a
 * whole dependency is down while it lasts (an outage: the caller may then meet the client's deadline) or a path stays
 * up (the other worker hosts, so no caller may see an error or wait past 30 s).
 */
import type { ChildProcess } from 'node:child_process';
import { clusterFaults, type ClusterEnv, type TemporalService } from './cluster';

/** Every kind of fault the suite injects. */
export const faultKinds = [
  'kill-worker',
  'kill-history',
  'kill-matching',
  'kill-frontend',
  'restart-temporal-db',
  'restart-archive-db',
  'cut-host-from-archive',
  'cut-host-from-frontend',
] as const;
export type FaultKind = (typeof faultKinds)[number];

/** One fault as it happened, in ms since the epoch. */
export interface Fault {
  kind: FaultKind;
  start: number;
  /** When the part was back (listening, restarted, link restored). */
  end: number;
  /** A whole dependency was down (a Temporal service, a database); false when other hosts kept a path up. */
  outage: boolean;
  /** The worker host it hit, for the kinds that hit one. */
  host?: number;
}

/** The worker processes by host (1-based), and how to start one again. */
export interface HostWorkers {
  byHost: Map<number, ChildProcess>;
  restart: (host: number) => Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Whether a fault of this kind takes a whole dependency down. */
export function isOutage(kind: FaultKind): boolean {
  return kind !== 'kill-worker' && !kind.startsWith('cut-');
}

/**
 * Injects one fault and undoes it: a worker SIGKILLed and started again; a Temporal service SIGKILLed and started
 * again after 0.5–2.5 s; a PostgreSQL crash-stopped and started again after 0.5–2.5 s; one host's link to the archive
 * or the frontend cut for 3–10 s (packets dropped silently) and restored.
 * @param random a generator in [0, 1) (the suite's seeded one)
 * @returns the fault with its times.
 */
export async function injectFault(
  env: ClusterEnv,
  kind: FaultKind,
  workers: HostWorkers,
  random: () => number
): Promise<Fault> {
  const hosts = [...workers.byHost.keys()];
  const host = hosts[Math.floor(random() * hosts.length)]!;
  const start = Date.now();
  const downMs = 500 + random() * 2000;
  switch (kind) {
    case 'kill-worker': {
      const child = workers.byHost.get(host)!;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL');
      await exited;
      await workers.restart(host);
      return { kind, start, end: Date.now(), outage: false, host };
    }
    case 'kill-history':
    case 'kill-matching':
    case 'kill-frontend': {
      const service = kind.slice('kill-'.length) as TemporalService;
      await clusterFaults.kill(env, service);
      await sleep(downMs);
      await clusterFaults.start(env, service);
      return { kind, start, end: Date.now(), outage: true };
    }
    case 'restart-temporal-db':
    case 'restart-archive-db':
      await clusterFaults.restartDatabase(env, kind === 'restart-archive-db' ? 'archive' : 'temporal', downMs / 1000);
      return { kind, start, end: Date.now(), outage: true };
    case 'cut-host-from-archive':
    case 'cut-host-from-frontend': {
      const link = kind === 'cut-host-from-archive' ? 'archive' : 'frontend';
      await clusterFaults.cut(env, host, link);
      await sleep(3000 + random() * 7000);
      await clusterFaults.restore(env, host, link);
      return { kind, start, end: Date.now(), outage: false, host };
    }
  }
}

/**
 * @returns the fault kinds in a random order, every kind once per round of {@link faultKinds}.length, so a run of n
 * faults holds every kind ⌊n / 8⌋ or ⌈n / 8⌉ times.
 */
export function faultDeck(count: number, random: () => number): FaultKind[] {
  const deck: FaultKind[] = [];
  while (deck.length < count) {
    const round = [...faultKinds];
    for (let i = round.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [round[i], round[j]] = [round[j]!, round[i]!];
    }
    deck.push(...round);
  }
  return deck.slice(0, count);
}

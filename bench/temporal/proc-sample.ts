/**
 * Per-process CPU time and resident memory from Linux /proc, for the scale benchmark: which process (dev server,
 * worker, client) uses the cores during a row tells where its limit is.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of /proc/<pid>/stat's utime and stime (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** @returns user + system CPU seconds `pid` has used so far; NaN when it is gone. */
export function cpuSeconds(pid: number): number {
  try {
    // The command name (field 2) may hold spaces: the fields after its closing parenthesis are fixed.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return NaN;
  }
}

/** @returns the CPU seconds every core of the machine has spent busy so far (all processes, /proc/stat). */
export function machineBusySeconds(): number {
  const [cpu] = readFileSync('/proc/stat', 'utf8').split('\n');
  const t = cpu!.trim().split(/\s+/).slice(1).map(Number);
  // user nice system idle iowait irq softirq steal: idle and iowait are not busy.
  return (t.reduce((a, b) => a + b, 0) - t[3]! - (t[4] ?? 0)) / TICKS_PER_SECOND;
}

/** @returns VmRSS and RssAnon (heap and stacks, without mapped files) of `pid` in MB; NaN when absent. */
export function rssMB(pid: number): { rss: number; anon: number } {
  let status = '';
  try {
    status = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    // The process exited: its figures are absent, not zero.
  }
  const kb = (key: string): number => {
    const m = status.match(new RegExp(`${key}:\\s+(\\d+) kB`));
    return m ? Number(m[1]) / 1024 : NaN;
  };
  return { rss: kb('VmRSS'), anon: kb('RssAnon') };
}

/** @returns the pids of `parent`'s direct children whose command name is `comm` (e.g. the dev server, 'temporal'). */
export function childrenNamed(parent: number, comm: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === parent && name === comm) pids.push(Number(entry));
    } catch {
      // The process exited while the directory was read.
    }
  }
  return pids;
}

/** CPU seconds per named process over an interval, and the machine's busy seconds (everyone's, other suites too). */
export interface CpuSplit {
  [process: string]: number;
}

/**
 * Starts measuring the CPU time of `pids` (by name) and of this process (`client`) and the whole machine.
 * @returns a function giving the seconds each used since the start.
 */
export function cpuMeter(pids: Record<string, number[]>): () => CpuSplit {
  const sum = (list: number[]): number => list.reduce((a, pid) => a + cpuSeconds(pid), 0);
  const start = Object.fromEntries(Object.entries(pids).map(([name, list]) => [name, sum(list)]));
  const client0 = process.cpuUsage();
  const machine0 = machineBusySeconds();
  return () => {
    const client = process.cpuUsage(client0);
    const split: CpuSplit = {};
    for (const [name, list] of Object.entries(pids)) split[name] = sum(list) - start[name]!;
    split.client = (client.user + client.system) / 1e6;
    split.machine = machineBusySeconds() - machine0;
    return split;
  };
}

/**
 * Worker start benchmark (`npm run bench worker-start`): time from process spawn until the worker prints that it
 * polls its task queue, against a running dev server (so no server start is timed), for
 * - sources: `node --require tsx/cjs src/worker.ts` (the old `npm start`: TypeScript through tsx, the workflow code
 *   bundled by webpack at every start);
 * - compiled: `node dist/cli/main.js worker` (the package's bin: compiled JavaScript, the prebuilt bundle).
 * Runs alternate between the two so machine load hits both alike. Results: bench/results/worker-start.{json,md}.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { distCli, ensureBuilt } from '../test/support/built-package';
import { spawnNode, waitFor } from '../test/support/processes';
import { sharedTestEnv, stopSharedTestEnv } from '../test/support/temporal';

const RUNS = Number(process.env.BENCH_WORKER_STARTS ?? 5);
const VARIANTS = {
  sources: ['--require', 'tsx/cjs', 'src/worker.ts'],
  compiled: [distCli, 'worker'],
} as const;

/** @returns ms from spawn to "polling task queue". */
async function startOnce(nodeArgs: readonly string[], address: string): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'dc-bench-start-'));
  writeFileSync(join(dir, 'temporal.yaml'), '');
  const t0 = performance.now();
  const p = spawnNode([...nodeArgs], {
    DC_CONFIG: join(dir, 'temporal.yaml'),
    TEMPORAL_ADDRESS: address,
    TEMPORAL_TASK_QUEUE: `bench-start-${process.pid}`,
    DATA_DIR: join(dir, 'data'),
  });
  await waitFor(p, () => p.stdout().includes('polling task queue'), 'the worker polls', 300_000);
  const ms = performance.now() - t0;
  p.child.kill('SIGTERM');
  await p.exit;
  return ms;
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

async function main(): Promise<void> {
  await ensureBuilt();
  const env = await sharedTestEnv();
  const ms: Record<keyof typeof VARIANTS, number[]> = { sources: [], compiled: [] };
  for (let i = 0; i < RUNS; i++) {
    for (const name of Object.keys(VARIANTS) as (keyof typeof VARIANTS)[]) {
      ms[name].push(await startOnce(VARIANTS[name], env.address));
      console.log(`${name} run ${i + 1}: ${ms[name].at(-1)!.toFixed(0)} ms`);
    }
  }
  // The machine's load when the runs ended: the figures are only comparable at a similar load.
  const load = Number(loadavg()[0]!.toFixed(1));
  await stopSharedTestEnv();
  const rows = (Object.keys(ms) as (keyof typeof VARIANTS)[]).map((name) => ({
    variant: name,
    runs: ms[name].length,
    medianMs: Math.round(median(ms[name])),
    minMs: Math.round(Math.min(...ms[name])),
    maxMs: Math.round(Math.max(...ms[name])),
  }));
  const date = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  const results = join(__dirname, 'results');
  writeFileSync(
    join(results, 'worker-start.json'),
    JSON.stringify({ date, cpus: cpus().length, load, rows, ms }, null, 1) + '\n'
  );
  const speedup = rows[0]!.medianMs / rows[1]!.medianMs;
  writeFileSync(
    join(results, 'worker-start.md'),
    [
      `# Worker start: sources vs compiled package (${date}, ${cpus().length} CPUs, load average ${load})`,
      '',
      'Spawn to "polling task queue" against a running dev server (`npm run bench worker-start`).',
      '',
      '| variant | runs | median ms | min ms | max ms |',
      '| ------- | ---- | --------- | ------ | ------ |',
      ...rows.map((r) => `| ${r.variant} | ${r.runs} | ${r.medianMs} | ${r.minMs} | ${r.maxMs} |`),
      '',
      `Median speed-up of the compiled worker: ${speedup.toFixed(1)}×.`,
      '',
    ].join('\n')
  );
  console.log(rows);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});

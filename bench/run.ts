/**
 * `npm run bench [name ...]`: runs the benchmarks (default: overhead, growth, scale, cost, workflow, in this order;
 * tokens, fold-latency, canaries, canaries-independent, fold-compute, worker-start, million, step-work, archive and recall by name), each in its own process so one does not warm or load the
 * next, then writes bench/results/report.md with its SVG plots from the results.
 * `BENCH_QUICK=1` runs CI-sized versions (for checking the bench itself, not for numbers).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, release, totalmem, type } from 'node:os';
import { join, resolve } from 'node:path';
import { writeReport, type RunInfo } from './report/write-report';
import { resultsDir } from './results-dir';

const ROOT = resolve(__dirname, '..');

/** Script and environment per benchmark; the quick sizes keep a check of the whole pipeline to about two minutes. */
const BENCHES: Record<string, { script: string; quick: Record<string, string>; byNameOnly?: boolean }> = {
  overhead: { script: 'overhead.ts', quick: { BENCH_SAMPLES: '20' } },
  growth: { script: 'growth.ts', quick: { BENCH_STEPS: '40' } },
  scale: { script: 'scale.ts', quick: { BENCH_SCALE: '20,60', BENCH_SCALE_STEPS: '2', BENCH_SCALE_CACHE: '100' } },
  cost: { script: 'cost.ts', quick: { BENCH_SESSIONS: '2' } },
  workflow: { script: 'workflow.ts', quick: { BENCH_WORKFLOW_SESSIONS: '1' } },
  // Run by name only (`npm run bench tokens`): the default run stays within 20 minutes on a loaded 2-core machine
  // without them. Their results have their own pages (docs/tokens.md, docs/archive.md, the canary tables).
  tokens: { script: 'tokens.ts', quick: {}, byNameOnly: true },
  'fold-latency': { script: 'fold-latency.ts', quick: {}, byNameOnly: true },
  canaries: { script: 'canaries.ts', quick: {}, byNameOnly: true },
  // The independent fact set through the public `fold` command; BENCH_QUICK=1 is two short sessions (seconds).
  'canaries-independent': { script: 'canaries-independent.ts', quick: {}, byNameOnly: true },
  // One offline fold per corpus session: the ledger's and the planner's own CPU time.
  'fold-compute': { script: 'fold-compute.ts', quick: {}, byNameOnly: true },
  'worker-start': { script: 'worker-start.ts', quick: { BENCH_WORKER_STARTS: '1' }, byNameOnly: true },
  // A 900 000-token conversation's ordinary step against a 10 000-token one's (BENCH_QUICK=1: 60 000 tokens).
  million: { script: 'million.ts', quick: {}, byNameOnly: true },
  // The workflow's own CPU work for one ordinary step at steps 5, 500 and 5 000, in-process (no Temporal server).
  'step-work': {
    script: 'step-work.ts',
    quick: { BENCH_STEP_AT: '5,50', BENCH_STEP_SAMPLES: '3', BENCH_STEP_ROUNDS: '1' },
    byNameOnly: true,
  },
  // `scripts/bench.sh` starts a throwaway PostgreSQL for it.
  archive: { script: 'archive.ts', quick: {}, byNameOnly: true },
  // Recall after 20+ folds of a corpus session; `scripts/bench.sh` starts a throwaway PostgreSQL for it too.
  recall: { script: 'recall.ts', quick: {}, byNameOnly: true },
};

function main(): void {
  const names = process.argv.slice(2);
  const unknown = names.filter((n) => !BENCHES[n]);
  if (unknown.length > 0) {
    console.error(`unknown bench '${unknown.join(', ')}' (known: ${Object.keys(BENCHES).join(', ')})`);
    process.exit(2);
  }
  const quick = process.env.BENCH_QUICK === '1';
  const RESULTS = resultsDir();
  const runFile = join(RESULTS, 'run.json');
  const previous = existsSync(runFile) ? (JSON.parse(readFileSync(runFile, 'utf8')) as RunInfo) : undefined;
  const seconds: Record<string, number> = names.length > 0 ? { ...previous?.seconds } : {};
  const started = performance.now();
  for (const name of names.length > 0 ? names : Object.keys(BENCHES).filter((n) => !BENCHES[n]!.byNameOnly)) {
    const bench = BENCHES[name]!;
    const t0 = performance.now();
    console.log(`== ${name}`);
    execFileSync(process.execPath, ['--require', 'tsx/cjs', join(__dirname, bench.script)], {
      cwd: ROOT,
      stdio: 'inherit',
      env: { ...process.env, ...(quick ? bench.quick : {}) },
    });
    seconds[name] = (performance.now() - t0) / 1000;
  }
  const info: RunInfo = {
    date: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    machine: {
      cpus: cpus().length,
      model: cpus()[0]?.model ?? 'unknown',
      memoryGB: totalmem() / 2 ** 30,
      os: `${type()} ${release()}`,
      node: process.version,
    },
    seconds,
    totalSeconds:
      names.length > 0 ? Object.values(seconds).reduce((a, b) => a + b, 0) : (performance.now() - started) / 1000,
  };
  writeFileSync(runFile, JSON.stringify(info, null, 1) + '\n');
  writeReport(RESULTS, info);
  console.log(`report: ${join(RESULTS, 'report.md')} (${(info.totalSeconds / 60).toFixed(1)} min)`);
}

main();

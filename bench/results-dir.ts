/**
 * Where a benchmark writes its results: `BENCH_RESULTS` when set (the CI check of the quick pipeline writes to a
 * temporary directory so its CI-sized figures never overwrite the measured ones), bench/results otherwise.
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** Returns the results directory, created when missing. Default: bench/results. */
export function resultsDir(): string {
  const dir = process.env.BENCH_RESULTS ? resolve(process.env.BENCH_RESULTS) : join(__dirname, 'results');
  mkdirSync(dir, { recursive: true });
  return dir;
}

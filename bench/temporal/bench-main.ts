import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { stopSharedTestEnv } from '../../test/support/temporal';
import { resultsDir } from '../results-dir';

/**
 * The entry point of a Temporal benchmark script: runs it on the shared dev server (SDK logs quiet), stops the server,
 * writes the result to `file` in bench/results (or `BENCH_RESULTS`), and prints what `print` makes of it. Exits 1 on an error.
 */
export function benchMain<T>(file: string, run: () => Promise<T>, print: (result: T) => void = () => {}): void {
  // SDK logs at WARN: worker state changes at INFO would drown the benchmark's output.
  Runtime.install({ logger: new DefaultLogger('WARN') });
  run()
    .then(async (result) => {
      await stopSharedTestEnv();
      writeFileSync(join(resultsDir(), file), JSON.stringify(result, null, 1) + '\n');
      print(result);
    })
    .catch((err: unknown) => {
      console.error(err);
      process.exit(1);
    });
}

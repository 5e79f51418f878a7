/**
 * `durable-compaction worker` and `durable-compaction dev`: the operator's entry to the worker process
 * ({@link runWorkerProcess}); they differ only in whether a local dev server may be started.
 */
import { runWorkerProcess, type WorkerProcessMode } from '../worker';
import { CliUsageError, parseFlags, type CliIO } from './io';

export const workerHelp = `usage: durable-compaction worker [--config FILE]
Runs the production worker: connects to temporal.address (TEMPORAL_ADDRESS), opens the archive, polls the task queue
until SIGINT or SIGTERM, then drains in-flight tasks. Configuration as for 'npm start': FILE (default $DC_CONFIG, else
./temporal.yaml) plus environment overrides (docs/configuration.md). Refuses to start without temporal.address.
Prints where it polls on stdout; exits 1 with one line on stderr when it cannot start.`;

export const devHelp = `usage: durable-compaction dev [--config FILE]
What 'npm start' runs: starts (or reuses) the embedded Temporal dev server (devServer.* settings; the Temporal CLI at
devServer.cliPath) unless temporal.address names a cluster, then runs the worker as 'durable-compaction worker' does.
Prints the task queue and the Web UI address. Ctrl-C stops both.`;

function runMode(mode: WorkerProcessMode) {
  return async (args: string[], io: CliIO): Promise<number> => {
    const { flags, positional } = parseFlags(args, ['config']);
    if (positional.length > 0) throw new CliUsageError(`unexpected argument '${positional[0]}'`);
    const configPath = flags.get('config');
    return runWorkerProcess({ mode, io, ...(configPath === undefined ? {} : { configPath }) });
  };
}

/** Runs `worker`. @returns 0 after a shutdown signal, 1 when the worker cannot start. */
export const runWorkerCommand = runMode('worker');
/** Runs `dev`. @returns 0 after Ctrl-C, 1 when the dev server or the worker cannot start. */
export const runDevCommand = runMode('dev');

/**
 * Crash trials (`node --require tsx/cjs bench/crash-trials.ts [kills] [concurrent] [seeds] [workers] [maxUpdatesPerRun]
 * [workflowTaskTimeoutMs]`, seeds comma-separated, default `1,2`): corpus conversations through the client while the
 * worker is SIGKILLed 1–6 s after the previous kill, with a slow model summarizer and runs of 30–60 updates; one trial
 * per seed. Prints each trial's summary and writes bench/results/crash-trials-mix.json (with the load average before
 * and after each trial). See test/support/crash-trials.ts for what is checked.
 */
import { writeFileSync } from 'node:fs';
import { cpus, hostname, loadavg } from 'node:os';
import { join } from 'node:path';
import { runCrashTrials, type CrashTrialResult } from '../test/support/crash-trials';
import { stopSharedTestEnv } from '../test/support/temporal';

async function main(): Promise<void> {
  const kills = Number(process.argv[2] ?? 100);
  const concurrent = Number(process.argv[3] ?? 8);
  const seeds = (process.argv[4] ?? '1,2').split(',').map(Number);
  const workers = Number(process.argv[5] ?? 1);
  const maxUpdatesPerRun = process.argv[6] ? Number(process.argv[6]) : undefined;
  const workflowTaskTimeoutMs = process.argv[7] ? Number(process.argv[7]) : undefined;
  const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'} (${hostname()})`;
  const runs: (CrashTrialResult & { date: string; loadBefore: number[]; loadAfter: number[] })[] = [];
  for (const seed of seeds) {
    const date = new Date().toISOString();
    const loadBefore = loadavg().map((l) => Math.round(l * 10) / 10);
    const result = await runCrashTrials({
      kills,
      concurrent,
      seed,
      workers,
      ...(maxUpdatesPerRun ? { maxUpdatesPerRun } : {}),
      ...(workflowTaskTimeoutMs ? { workflowTaskTimeoutMs } : {}),
      keepFailedHistoriesIn: join(__dirname, 'results', 'crash-trial-histories'),
      log: (line) => process.stderr.write(`${line}\n`),
    });
    const loadAfter = loadavg().map((l) => Math.round(l * 10) / 10);
    runs.push({ date, loadBefore, loadAfter, ...result });
    console.log(result.line);
    console.log(
      `worker restarts: mean ${(result.meanRestartMs / 1000).toFixed(1)} s, max ${(result.maxRestartMs / 1000).toFixed(1)} s; ` +
        `calls ${result.calls}: p50 ${(result.p50BlockedMs / 1000).toFixed(2)} s, p99 ${(result.p99BlockedMs / 1000).toFixed(1)} s, ` +
        `over 30 s: ${result.callsOver30s}; kills inside the longest call: ${result.killsDuringLongest}; ` +
        `load average ${loadBefore.join(' ')} before, ${loadAfter.join(' ')} after`
    );
    if (result.uncertain > 0) {
      console.log(
        `messages of calls that ended with stored 'unknown': ${result.uncertain}, archived once: ${result.uncertainStored}`
      );
    }
    if (result.clientErrorSamples.length > 0) console.log('client errors:', result.clientErrorSamples);
    if (result.taskFailureSamples.length > 0) console.log('failed workflow tasks:', result.taskFailureSamples);
    if (result.mismatches.length > 0) console.log('mismatches:', result.mismatches);
    for (const line of result.slowCallTimelines) console.log(`slow call: ${line}`);
    writeFileSync(
      join(__dirname, 'results', workers > 1 ? `crash-trials-mix-${workers}-workers.json` : 'crash-trials-mix.json'),
      `${JSON.stringify({ machine, runs }, null, 2)}\n`
    );
  }
  await stopSharedTestEnv();
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  }
);

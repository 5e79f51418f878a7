/**
 * Crash trials (`node --require tsx/cjs bench/crash-trials.ts [kills] [concurrent] [workers] [maxUpdatesPerRun] [workflowTaskTimeoutMs]`): corpus conversations through
 * the client while the worker is SIGKILLed every 1–6 s, with a slow model summarizer; prints the one-line summary and
 * writes bench/results/crash-trials.json. See test/support/crash-trials.ts for what is checked.
 */
import { writeFileSync } from 'node:fs';
import { cpus, hostname } from 'node:os';
import { join } from 'node:path';
import { runCrashTrials } from '../test/support/crash-trials';
import { stopSharedTestEnv } from '../test/support/temporal';

async function main(): Promise<void> {
  const kills = Number(process.argv[2] ?? 100);
  const concurrent = Number(process.argv[3] ?? 4);
  const workers = Number(process.argv[4] ?? 1);
  const maxUpdatesPerRun = process.argv[5] ? Number(process.argv[5]) : undefined;
  const workflowTaskTimeoutMs = process.argv[6] ? Number(process.argv[6]) : undefined;
  const started = new Date();
  const result = await runCrashTrials({
    kills,
    concurrent,
    workers,
    maxUpdatesPerRun,
    workflowTaskTimeoutMs,
    log: (line) => process.stderr.write(`${line}\n`),
  });
  const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'} (${hostname()})`;
  console.log(result.line);
  console.log(
    `worker restarts: mean ${(result.meanRestartMs / 1000).toFixed(1)} s, max ${(result.maxRestartMs / 1000).toFixed(1)} s; ` +
      `calls ${result.calls}: p50 ${(result.p50BlockedMs / 1000).toFixed(2)} s, p99 ${(result.p99BlockedMs / 1000).toFixed(1)} s, ` +
      `over 30 s: ${result.callsOver30s}; kills inside the longest call: ${result.killsDuringLongest}`
  );
  if (result.uncertain > 0) {
    console.log(
      `messages of calls that ended with stored 'unknown': ${result.uncertain}, archived once: ${result.uncertainStored}`
    );
  }
  if (result.clientErrorSamples.length > 0) console.log('client errors:', result.clientErrorSamples);
  if (result.mismatches.length > 0) console.log('mismatches:', result.mismatches);
  for (const line of result.slowCallTimelines) console.log(`slow call: ${line}`);
  writeFileSync(
    join(__dirname, 'results', workers > 1 ? `crash-trials-${workers}-workers.json` : 'crash-trials.json'),
    `${JSON.stringify({ date: started.toISOString(), machine, ...result }, null, 2)}\n`
  );
  await stopSharedTestEnv();
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  }
);

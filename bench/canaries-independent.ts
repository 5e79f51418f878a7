/**
 * `npm run bench canaries-independent`: fact survival measured with fact sets written independently of the ledger
 * (bench/canaries/independent-facts.json; independent-facts-2.json, written after the ledger's first changes; -3 and -4,
 * written blind by two more authors on 2026-12-07; -4 first measured once the typed-slot rule was settled; -5 written blind on 2026-12-07 and held out from the class-slot
 * rules), through the public
 * `fold` command, beside the simple baselines. Writes
 * bench/results/canaries-independent.json (`{"sets": [report, …]}`) and .md, one section per set.
 * `CANARY_FACTS=path` measures that fact file alone. `BENCH_QUICK=1`: two short sessions, one seed (a few seconds).
 * `BENCH_RESULTS=DIR` writes the results there instead of bench/results.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadFactSet } from './canaries/independent/facts';
import type { IndependentReport } from './canaries/independent/measure';
import { formatIndependent, measureIndependent } from './canaries/independent/measure';
import { resultsDir } from './results-dir';

const QUICK_SESSIONS = ['tau2-bench-gpt41-retail-task38', 'swe-agent-gpt4-pydicom__pydicom-1458'];
const SETS = [
  'bench/canaries/independent-facts.json',
  'bench/canaries/independent-facts-2.json',
  'bench/canaries/independent-facts-3.json',
  'bench/canaries/independent-facts-4.json',
  'bench/canaries/independent-facts-5.json',
];

async function main(): Promise<void> {
  const quick = process.env.BENCH_QUICK === '1';
  const files = process.env.CANARY_FACTS ? [process.env.CANARY_FACTS] : SETS;
  const reports: IndependentReport[] = [];
  for (const file of files) {
    reports.push(
      await measureIndependent({
        facts: loadFactSet(process.env.CANARY_FACTS ? file : join(__dirname, '..', file)),
        source: file,
        ...(quick ? { sessions: QUICK_SESSIONS, seeds: [0] } : { seeds: [0, 1, 2] }),
      })
    );
  }
  const md = reports.map(formatIndependent).join('\n');
  if (!quick) {
    const dir = resultsDir();
    writeFileSync(join(dir, 'canaries-independent.json'), `${JSON.stringify({ sets: reports }, null, 2)}\n`);
    writeFileSync(join(dir, 'canaries-independent.md'), `${md}\n`);
  }
  console.log(md);
}

void main();

/**
 * `npm run bench canaries-independent`: fact survival measured with a fact set written independently of the ledger
 * (bench/canaries/independent-facts.json), through the public `fold` command, beside the simple baselines. Writes
 * bench/results/canaries-independent.json and .md. `BENCH_QUICK=1`: two short sessions, one seed (a few seconds).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadFactSet } from './canaries/independent/facts';
import { formatIndependent, measureIndependent } from './canaries/independent/measure';

const QUICK_SESSIONS = ['tau2-bench-gpt41-retail-task38', 'swe-agent-gpt4-pydicom__pydicom-1458'];

async function main(): Promise<void> {
  const quick = process.env.BENCH_QUICK === '1';
  const file = process.env.CANARY_FACTS ?? join(__dirname, 'canaries', 'independent-facts.json');
  const report = await measureIndependent({
    facts: loadFactSet(file),
    source: process.env.CANARY_FACTS ? file : 'bench/canaries/independent-facts.json',
    ...(quick ? { sessions: QUICK_SESSIONS, seeds: [0] } : { seeds: [0, 1, 2] }),
  });
  const md = formatIndependent(report);
  if (!quick) {
    const dir = join(__dirname, 'results');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'canaries-independent.json'), `${JSON.stringify(report, null, 2)}\n`);
    writeFileSync(join(dir, 'canaries-independent.md'), `${md}\n`);
  }
  console.log(md);
}

void main();

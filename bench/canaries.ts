/**
 * `npm run bench canaries`: the canary survival table (README "What a fold remembers"): every corpus session, six
 * seeds, five folds at decreasing budgets through the real fold path with the offline summarizer. Writes
 * bench/results/canaries.json and canaries.md.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatReport, measureCanaries } from './canaries/measure';

async function main(): Promise<void> {
  const report = await measureCanaries({ seeds: [0, 1, 2, 3, 4, 5] });
  const dir = join(__dirname, 'results');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'canaries.json'), `${JSON.stringify(report, null, 2)}\n`);
  const md = formatReport(report);
  writeFileSync(join(dir, 'canaries.md'), `${md}\n`);
  console.log(md);
}

void main();

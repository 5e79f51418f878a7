/**
 * `npm run bench fold-compute`: the CPU time of one offline fold (the public `fold` command: extractive summarizer,
 * state ledger, planning), per corpus session, folded whole at 30% of its size; the median of BENCH_FOLD_ROUNDS rounds
 * (default 3). Results: bench/results/fold-compute.{json,md}. BENCH_QUICK=1: two short sessions, one round.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTokenCounter } from '../src/tokens';
import { corpusConversations } from '../test/support/corpus';
import { tokensOf } from './canaries/independent/measure';
import { cleanUp, publicFold } from './canaries/independent/public-fold';
import { resultsDir } from './results-dir';

const QUICK_SESSIONS = ['tau2-bench-gpt41-retail-task38', 'swe-agent-gpt4-pydicom__pydicom-1458'];

async function main(): Promise<void> {
  const quick = process.env.BENCH_QUICK === '1';
  const rounds = quick ? 1 : Number(process.env.BENCH_FOLD_ROUNDS ?? 3);
  const counter = createTokenCounter({ model: 'gpt-4o' });
  const sessions = corpusConversations().filter((c) => !quick || QUICK_SESSIONS.includes(c.name));
  const rows: { session: string; messages: number; tokens: number; ms: number }[] = [];
  try {
    for (const { name, messages } of sessions) {
      const tokens = tokensOf(messages, counter);
      const times: number[] = [];
      for (let r = 0; r < rounds; r++) {
        const t0 = performance.now();
        await publicFold(messages, Math.round(0.3 * tokens));
        times.push(performance.now() - t0);
      }
      times.sort((a, b) => a - b);
      rows.push({ session: name, messages: messages.length, tokens, ms: Math.round(times[Math.floor(rounds / 2)]!) });
    }
  } finally {
    cleanUp();
  }
  const total = rows.reduce((a, r) => a + r.ms, 0);
  const md = [
    `One offline fold per corpus session at 30% of its size (median of ${rounds}); total **${(total / 1000).toFixed(1)} s**.`,
    '',
    '| session | messages | tokens | fold (ms) |',
    '|---|---|---|---|',
    ...rows.map((r) => `| ${r.session} | ${r.messages} | ${r.tokens} | ${r.ms} |`),
  ].join('\n');
  if (!quick) {
    writeFileSync(
      join(resultsDir(), 'fold-compute.json'),
      `${JSON.stringify({ rounds, totalMs: total, rows }, null, 2)}\n`
    );
    writeFileSync(join(resultsDir(), 'fold-compute.md'), `${md}\n`);
  }
  console.log(md);
}

void main();

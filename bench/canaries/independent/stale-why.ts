/**
 * `npx tsx bench/canaries/independent/stale-why.ts [scenario]`: for each update whose replaced value the fold's last
 * context still states, the line that states it and whether the new value is stated too. `CANARY_FACTS=path`.
 */
import { join } from 'node:path';
import { loadFactSet, valuePattern } from './facts';
import { foldRuns } from './fold-runs';
import { messageText, statesStale } from './measure';
import { cleanUp } from './public-fold';

async function main(): Promise<void> {
  const only = process.argv[2];
  const file = process.env.CANARY_FACTS ?? join(__dirname, '..', 'independent-facts.json');
  const set = loadFactSet(file);
  const seen = new Map<string, number>();
  for await (const { session: name, seed, scenario: sc, planted, contexts } of foldRuns(
    set,
    only ? { scenario: only } : {}
  )) {
    const originalSet = new Set(planted.messages.map((m) => JSON.stringify(m)));
    const context = contexts[contexts.length - 1]!;
    for (const p of planted.planted) {
      if (!p.update || statesStale(context, p, planted.messages) !== true) continue;
      const u = set.updates.find((x) => x.id === p.id)!;
      seen.set(u.id, (seen.get(u.id) ?? 0) + 1);
      const olds = u.oldValue.map(valuePattern);
      const news = u.newValue.map(valuePattern);
      const lines = context
        .filter((m) => !originalSet.has(JSON.stringify(m)))
        .flatMap((m) => messageText(m).split('\n'));
      const stale = lines.filter((l) => olds.some((v) => v.test(l)));
      const fresh = lines.filter((l) => news.some((v) => v.test(l)));
      console.log(`\n### ${u.id} (${u.type}, ${u.speaker}) ${sc.name} ${name} s${seed}`);
      console.log(`  first: ${u.first.slice(0, 160)}\n  later: ${u.later.slice(0, 160)}`);
      for (const l of stale.slice(0, 2)) console.log(`  OLD> ${l.trim().slice(0, 220)}`);
      for (const l of fresh.slice(0, 1)) console.log(`  NEW> ${l.trim().slice(0, 220)}`);
      if (fresh.length === 0) console.log('  (new value not stated)');
    }
  }
  cleanUp();
  console.log(
    '\nper update:',
    [...seen]
      .sort()
      .map(([k, v]) => `${k}:${v}`)
      .join(' ')
  );
}

void main();

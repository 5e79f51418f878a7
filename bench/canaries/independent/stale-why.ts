/**
 * `npx tsx bench/canaries/independent/stale-why.ts [scenario]`: for each update whose replaced value the fold's last
 * context still states, the line that states it and whether the new value is stated too. `CANARY_FACTS=path`.
 */
import { join } from 'node:path';
import { createTokenCounter } from '../../../src/tokens';
import { corpusConversations } from '../../../test/support/corpus';
import { loadFactSet, valuePattern } from './facts';
import { factsOfRun, messageText, parts, SCENARIOS, MIN_BUDGET, tokensOf, statesStale } from './measure';
import { plantFacts } from './plant';
import { cleanUp, publicFold } from './public-fold';

type Message = Record<string, unknown>;

async function main(): Promise<void> {
  const only = process.argv[2];
  const file = process.env.CANARY_FACTS ?? join(__dirname, '..', 'independent-facts.json');
  const set = loadFactSet(file);
  const counter = createTokenCounter({ model: 'gpt-4o' });
  const seen = new Map<string, number>();
  let run = 0;
  for (const { messages, name } of corpusConversations()) {
    for (const seed of [0, 1, 2]) {
      const chosen = factsOfRun(set, run++);
      const planted = plantFacts(messages, chosen.facts, chosen.updates, seed);
      const original = tokensOf(planted.messages, counter);
      const originalSet = new Set(planted.messages.map((m) => JSON.stringify(m)));
      for (const sc of SCENARIOS) {
        if (only && sc.name !== only) continue;
        const budgets = sc.shares.map((s) => Math.max(MIN_BUDGET, Math.round(s * original)));
        const feed = sc.parts ? parts(planted.messages, budgets.length) : [planted.messages];
        let context: Message[] = [];
        for (let k = 0; k < budgets.length; k++) {
          context = [...context, ...(feed[k] ?? [])];
          context = (await publicFold(context, budgets[k]!)).messages;
        }
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

/**
 * `npx tsx bench/canaries/independent/diagnose.ts [scenario]`: why the fold loses facts of the independent set. For
 * each fact the last context does not hold, the fold it was lost at and how: never written into a summary, written
 * without every probe (a pointer or a shortened line), or written and then left out by a later fold. Prints counts by
 * cause and type, and up to `DIAG_EXAMPLES` examples per cause. `CANARY_FACTS=path` picks the fact file; `DIAG_ROOMY=1`
 * looks only at the runs whose last budget has room beside the instructions (`ROOMY_SHARE`).
 */
import { join } from 'node:path';
import { loadFactSet } from './facts';
import { foldRuns } from './fold-runs';
import { holds, messageText } from './measure';
import type { PlantedFact } from './plant';
import { cleanUp } from './public-fold';

type Message = Record<string, unknown>;

const words = (s: string): string[] => s.toLowerCase().match(/[a-z0-9$@/._-]{4,}/g) ?? [];

/** @returns the summary lines that share at least a third of the fact's longer words */
function mentions(context: readonly Message[], original: Set<string>, text: string): string[] {
  const want = new Set(words(text));
  const out: string[] = [];
  for (const m of context) {
    if (original.has(JSON.stringify(m))) continue;
    for (const line of messageText(m).split('\n')) {
      const got = words(line).filter((w) => want.has(w)).length;
      if (want.size > 0 && got / want.size >= 0.34) out.push(line.trim());
    }
  }
  return out;
}

async function main(): Promise<void> {
  const only = process.argv[2];
  const file = process.env.CANARY_FACTS ?? join(__dirname, '..', 'independent-facts.json');
  const set = loadFactSet(file);
  const texts = new Map<string, string>([
    ...set.facts.map((f) => [f.id, f.text] as const),
    ...set.updates.map((u) => [u.id, u.later] as const),
  ]);
  const causes = new Map<string, number>();
  const examples = new Map<string, string[]>();
  const max = Number(process.env.DIAG_EXAMPLES ?? 4);
  const note = (cause: string, p: PlantedFact, detail: string): void => {
    const key = `${cause}`;
    causes.set(key, (causes.get(key) ?? 0) + 1);
    const ks = `${cause}|${p.type}/${p.speaker}`;
    causes.set(ks, (causes.get(ks) ?? 0) + 1);
    const list = examples.get(cause) ?? [];
    if (list.length < max)
      list.push(`${p.id} (${p.type}, ${p.speaker}, ${p.position}): ${texts.get(p.id)}\n      ${detail}`);
    examples.set(cause, list);
  };
  for await (const { session: name, seed, scenario: sc, planted, feed, contexts, budgets } of foldRuns(set, {
    ...(only ? { scenario: only } : {}),
    roomy: process.env.DIAG_ROOMY === '1',
  })) {
    const originalSet = new Set(planted.messages.map((m) => JSON.stringify(m)));
    const context = contexts[contexts.length - 1]!;
    for (const p of planted.planted) {
      if (holds(context.map(messageText), p)) continue;
      const source = JSON.stringify(planted.messages[p.at]);
      // The fold that first ran without the fact's message in its output, once the message was fed in.
      let fed = 0;
      for (let end = feed[0]!.length; end <= p.at; end += feed[fed]!.length) fed += 1;
      const left = contexts.findIndex((c, k) => k >= fed && !c.some((m) => JSON.stringify(m) === source));
      if (left < 0) {
        note('in context, probes missing (clipped/offloaded)', p, name);
        continue;
      }
      const firstHeld = holds(contexts[left]!.map(messageText), p);
      const lostAt = firstHeld ? contexts.findIndex((c, k) => k > left && !holds(c.map(messageText), p)) : left;
      const seen = mentions(contexts[lostAt]!, originalSet, texts.get(p.id) ?? '');
      const cause = firstHeld ? 'kept, then lost at a later fold' : 'lost at the fold that took it';
      const how = seen.length > 0 ? 'a line without every probe' : 'no line at all';
      note(
        `${cause}: ${how}`,
        p,
        `${sc.name} ${name} seed ${seed} fold ${lostAt + 1}/${budgets.length}${seen[0] ? ` | ${seen[0].slice(0, 220)}` : ''}`
      );
    }
  }
  cleanUp();
  for (const [k, v] of [...causes].sort()) console.log(`${v}\t${k}`);
  for (const [k, list] of examples) console.log(`\n## ${k}\n${list.map((l) => `- ${l}`).join('\n')}`);
}

void main();

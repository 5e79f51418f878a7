import { corpusConversations } from './test/support/corpus';
import { plantCanaries } from './bench/canaries/plant';
import { runFolds } from './bench/canaries/run';
import { createTokenCounter } from './src/tokens';
async function main() {
  const counter = createTokenCounter({ model: 'gpt-4o' });
  for (const { name, messages } of corpusConversations()) {
    const total = counter.countMessages(messages, 'chat').reduce((a, b) => a + b, 0);
    const counts = counter.countMessages(messages, 'chat');
    const fixed = messages.reduce((a, m, i) => a + (m.role === 'system' ? counts[i]! : 0), 0);
    const floor = fixed + Number(process.env.FLOOR ?? 3000);
    const b1 = Math.min(24000, Math.max(Math.round(floor * 1.25), Math.round(total / 3)));
    const budgets = [0, 1, 2, 3, 4].map((k) => Math.max(floor, Math.round(b1 * 0.8 ** k)));
    const dry = await runFolds(messages, { budgets, folds: 5, counter });
    const prefix = dry.length >= 5 ? dry[4]!.ingested : messages.length;
    const p = plantCanaries(messages, prefix, 1);
    const rounds = await runFolds(p.messages, { budgets, folds: 5, counter, canaries: p.canaries });
    const last = rounds[rounds.length - 1]!;
    const lost = last.planted.filter((c) => !last.kept.has(c.canary.id));
    console.log(name, 'rounds', rounds.length, rounds.map((r) => `${r.ok ? '' : 'FAIL '}${r.budget}:${r.summaryTokens}/${r.coveredTokens}`).join(' '), 'kept', last.kept.size, '/', last.planted.length, 'stale', last.stale.size, '/', last.staleEligible.size);
    for (const c of lost) console.log('   LOST', c.canary.type, c.canary.position, c.canary.text);
    for (const id of last.stale) console.log('   STALE', p.canaries.find((c) => c.canary.id === id)!.canary.text);
    if (process.env.SHOW && name.includes(process.env.SHOW)) console.log(last.summary);
  }
}
void main();

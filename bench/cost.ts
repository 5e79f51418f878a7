/**
 * Session-cost benchmark (`npm run bench cost`): every corpus session at 16k, 32k and 64k under each strategy of
 * bench/cost/strategies.ts, in-process with the offline summarizer (deterministic). Writes bench/results/cost.json.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTokenCounter } from '../src/tokens';
import { corpusConversations } from '../test/support/corpus';
import { PRICE_MODEL, PRICE_MODELS } from './cost/price-model';
import { resultsDir } from './results-dir';
import { simulateSession, type SessionCost } from './cost/simulate';
import { createStrategy, STRATEGIES, type StrategyName } from './cost/strategies';

export const BUDGETS = [16_000, 32_000, 64_000];
/** The session whose context per request is plotted (the longest in requests). */
export const PLOT_SESSION = 'mini-swe-agent-deepseek-sqlfluff__sqlfluff-1733';
const MODEL = 'gpt-4o';

export interface CostRow extends Omit<SessionCost, 'perRequest'> {
  session: string;
  budget: number;
  strategy: StrategyName;
  perRequest?: number[];
}

/** cost.json: the headline price model, every provider's, and one row per session, budget and strategy. */
export interface CostResult {
  priceModel: typeof PRICE_MODEL;
  /** Absent in results written before the provider price models. */
  priceModels?: typeof PRICE_MODELS;
  rows: CostRow[];
}

export async function runCost(sessionLimit = Infinity): Promise<CostResult> {
  const counter = createTokenCounter({ model: MODEL });
  const rows: CostRow[] = [];
  for (const { name, messages } of corpusConversations().slice(0, sessionLimit)) {
    for (const budget of BUDGETS) {
      for (const strategy of STRATEGIES) {
        const s = createStrategy(strategy, { budget, model: MODEL, counter, conversationId: `${name}@${budget}` });
        const { perRequest, ...cost } = await simulateSession(messages, s, counter, budget);
        rows.push({
          session: name,
          budget,
          strategy,
          ...cost,
          ...(name === PLOT_SESSION && budget === 32_000 ? { perRequest } : {}),
        });
      }
    }
  }
  return { priceModel: PRICE_MODEL, priceModels: PRICE_MODELS, rows };
}

if (require.main === module) {
  const started = performance.now();
  runCost(Number(process.env.BENCH_SESSIONS ?? Infinity))
    .then((result) => {
      writeFileSync(join(resultsDir(), 'cost.json'), JSON.stringify(result, null, 1) + '\n');
      console.log(`cost: ${result.rows.length} rows in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    })
    .catch((err: unknown) => {
      console.error(err);
      process.exit(1);
    });
}

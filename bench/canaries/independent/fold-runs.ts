/**
 * The runs of the independent canary measure, one at a time, for the diagnosis scripts: each corpus session × seed ×
 * scenario, planted with its facts and folded through the public `fold` command, with every fold's context.
 */
import { createTokenCounter } from '../../../src/tokens';
import { corpusConversations } from '../../../test/support/corpus';
import type { FactSet } from './facts';
import { factsOfRun, hasRoom, MIN_BUDGET, parts, SCENARIOS, tokensOf } from './measure';
import type { Scenario } from './measure';
import { plantFacts } from './plant';
import { publicFold } from './public-fold';

type Message = Record<string, unknown>;

/** One folded run. */
export interface FoldRun {
  session: string;
  seed: number;
  scenario: Scenario;
  planted: ReturnType<typeof plantFacts>;
  /** The parts fed in before each fold. */
  feed: Message[][];
  /** The context after each fold. */
  contexts: Message[][];
  budgets: number[];
}

/** Options of {@link foldRuns}. */
export interface FoldRunOptions {
  /** Only the scenario of this name. */
  scenario?: string;
  /** Only the runs whose last budget has room beside the instructions (see `hasRoom`). */
  roomy?: boolean;
}

/**
 * Folds every run of the measure in its order (the same facts per run as the bench).
 *
 * @returns the runs, as they are folded
 */
export async function* foldRuns(set: FactSet, options: FoldRunOptions = {}): AsyncGenerator<FoldRun> {
  const counter = createTokenCounter({ model: 'gpt-4o' });
  let run = 0;
  for (const { messages, name } of corpusConversations()) {
    for (const seed of [0, 1, 2]) {
      const chosen = factsOfRun(set, run++);
      const planted = plantFacts(messages, chosen.facts, chosen.updates, seed);
      const original = tokensOf(planted.messages, counter);
      for (const scenario of SCENARIOS) {
        if (options.scenario && scenario.name !== options.scenario) continue;
        const budgets = scenario.shares.map((s) => Math.max(MIN_BUDGET, Math.round(s * original)));
        if (options.roomy && !hasRoom(planted.messages, budgets[budgets.length - 1]!, counter)) continue;
        const feed = scenario.parts ? parts(planted.messages, budgets.length) : [planted.messages];
        let context: Message[] = [];
        const contexts: Message[][] = [];
        for (let k = 0; k < budgets.length; k++) {
          context = [...context, ...(feed[k] ?? [])];
          context = (await publicFold(context, budgets[k]!)).messages;
          contexts.push(context);
        }
        yield { session: name, seed, scenario, planted, feed, contexts, budgets };
      }
    }
  }
}

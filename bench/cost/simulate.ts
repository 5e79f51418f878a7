/**
 * The one simulation loop every strategy runs through: a recorded session is replayed request by request (a request
 * is sent before each assistant message, as the agent did), the strategy returns the context, and the loop measures
 * what a provider would bill for it: input tokens, the prefix it shares with the previous request (what a prompt
 * cache reuses), summaries, and at the end the identifiers of messages that left the context still readable in it.
 */
import { collectIdentifiers } from '../../src/core/fold/identifiers';
import { adapterFor } from '../../src/core/messages/adapter-for-format';
import type { TokenCounter } from '../../src/tokens';
import { cachedTokens, inputCost, PRICE_MODELS, summaryCost, type PriceModelName } from './price-model';
import type { Strategy } from './strategies';

/** The reply priming every request costs on top of its messages (cookbook: 3 tokens). */
const REPLY_PRIMING = 3;

/** One strategy on one session at one budget. */
export interface SessionCost {
  requests: number;
  /** Input tokens of every request, summed, and the largest request. */
  tokensSent: number;
  maxTokens: number;
  /** Requests over the budget (a provider would reject them). */
  overBudget: number;
  /** Summaries written (folds). */
  folds: number;
  /** Tokens of the whole session at its end (what no compaction would send last). */
  sessionTokens: number;
  /** Tokens each request shares as a message prefix with the previous request, summed. */
  prefixTokens: number;
  /** Of those, what the provider caches (≥ 1024 tokens, 128-token blocks). */
  cachedTokens: number;
  /** Dollars under PRICE_MODEL: request input, and summaries priced as if a model wrote them. */
  inputCost: number;
  summaryCost: number;
  /** Dollars (input plus summaries) under each provider's price model. */
  costBy: Record<PriceModelName, number>;
  /** Identifiers of messages that left the context, and how many of them the final context still contains. */
  identifiers: { total: number; kept: number };
  /** Input tokens per request, in order (for the plot). */
  perRequest: number[];
}

/** Replays `messages` through `strategy`. @returns what it cost. */
export async function simulateSession(
  messages: readonly unknown[],
  strategy: Strategy,
  counter: TokenCounter,
  budget: number
): Promise<SessionCost> {
  const all: unknown[] = [];
  const counts: number[] = [];
  const known = new Map<unknown, number>();
  const tokensOf = (raw: unknown): number => known.get(raw) ?? counter.countMessages([raw], 'chat')[0]!;
  const out: SessionCost = {
    requests: 0,
    tokensSent: 0,
    maxTokens: 0,
    overBudget: 0,
    folds: 0,
    sessionTokens: 0,
    prefixTokens: 0,
    cachedTokens: 0,
    inputCost: 0,
    summaryCost: 0,
    costBy: { anthropic: 0, openai: 0, gemini: 0 },
    identifiers: { total: 0, kept: 0 },
    perRequest: [],
  };
  let previous: unknown[] = [];
  let context: unknown[] = [];
  let seenAtLast = 0;
  for (const message of messages) {
    if ((message as { role?: string }).role === 'assistant' && all.length > 0) {
      const step = await strategy.next(all, counts);
      context = step.context;
      const sizes = context.map(tokensOf);
      const tokens = sizes.reduce((a, b) => a + b, REPLY_PRIMING);
      let shared = 0;
      while (shared < Math.min(previous.length, context.length) && sameMessage(previous[shared], context[shared])) {
        shared++;
      }
      const prefix = sizes.slice(0, shared).reduce((a, b) => a + b, 0);
      const cached = cachedTokens(prefix);
      out.requests++;
      out.tokensSent += tokens;
      out.maxTokens = Math.max(out.maxTokens, tokens);
      if (tokens > budget) out.overBudget++;
      out.prefixTokens += prefix;
      out.cachedTokens += cached;
      out.inputCost += inputCost(tokens, cached);
      for (const s of step.summaries) {
        out.folds++;
        out.summaryCost += summaryCost(s.read, s.written);
      }
      for (const name of Object.keys(PRICE_MODELS) as PriceModelName[]) {
        const model = PRICE_MODELS[name];
        out.costBy[name] += inputCost(tokens, cachedTokens(prefix, model), model);
        for (const s of step.summaries) out.costBy[name] += summaryCost(s.read, s.written, model);
      }
      out.perRequest.push(tokens);
      previous = context;
      seenAtLast = all.length;
    }
    const count = counter.countMessages([message], 'chat')[0]!;
    all.push(message);
    counts.push(count);
    known.set(message, count);
    out.sessionTokens += count;
  }
  out.sessionTokens += REPLY_PRIMING;
  out.identifiers = retention(all.slice(0, seenAtLast), context);
  return out;
}

function sameMessage(a: unknown, b: unknown): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

/** Identifiers of the messages not in `context` verbatim, and how many of them `context` still contains. */
function retention(all: readonly unknown[], context: readonly unknown[]): { total: number; kept: number } {
  const inContext = new Set(context);
  const adapter = adapterFor('chat');
  const left = all.filter((m) => !inContext.has(m)).map((m, i) => adapter.toItem(m, i));
  const text = JSON.stringify(context);
  const ids = collectIdentifiers(left);
  const kept = ids.filter((id) => text.includes(id.value) || text.includes(JSON.stringify(id.value).slice(1, -1)));
  return { total: ids.length, kept: kept.length };
}

/**
 * The context-management strategies the session-cost simulation compares. Each one gets the whole session so far
 * (append-only, with per-message counts) before every request and returns the context it would send. They share one
 * simulation loop (simulate.ts) and one summarizer (the offline extractive digest), so only the policy differs.
 */
import { adapterFor } from '../../src/core/messages/adapter-for-format';
import { normalize } from '../../src/core/messages/normalize';
import { safeAtOrBefore, safeCuts } from '../../src/core/plan';
import { createSummarizer } from '../../src/summarizers';
import type { TokenCounter } from '../../src/tokens';
import { clearToolUsesStrategy } from './clear-tool-uses';
import { InProcessConversation } from './in-process';

/** Names, in report order. */
export const STRATEGIES = [
  'durable-compaction',
  'no-compaction',
  'keep-last-20',
  'sliding-window',
  'truncate-oldest',
  'openai-truncation-auto',
  'anthropic-compaction',
  'anthropic-clear-tool-uses',
] as const;
export type StrategyName = (typeof STRATEGIES)[number];

/** What one strategy sends for one request. */
export interface StrategyStep {
  context: unknown[];
  /** Summaries written for this request (tokens read, tokens written). */
  summaries: { read: number; written: number }[];
}

export interface Strategy {
  name: StrategyName;
  /** The context for the next request, given every message of the session so far and their counts. */
  next(all: readonly unknown[], counts: readonly number[]): Promise<StrategyStep>;
}

/** What every strategy of one run shares. */
export interface StrategyEnv {
  budget: number;
  model: string;
  counter: TokenCounter;
  conversationId: string;
}

/** Messages a baseline keeps: the leading instructions, its running summary (if any), and the tail from `first`. */
interface Window {
  first: number;
  summary: { raw: unknown; tokens: number } | null;
}

/**
 * Where a baseline cuts, given the session so far: a new `first` (only moves forward), or `undefined` to keep the
 * window as it is. `tail(s)` is the tokens of messages [s, n) without instructions; `safe` the safe cuts.
 */
type CutRule = (view: {
  n: number;
  budget: number;
  window: Window;
  contextTokens: number;
  tail: (s: number) => number;
  safe: readonly boolean[];
}) => number | undefined;

/** The earliest safe cut at or after `from` whose tail fits `limit` tokens (the last safe cut when none fits). */
function firstFitting(view: Parameters<CutRule>[0], from: number, limit: number): number {
  for (let s = from; s < view.n; s++) if (view.safe[s] && view.tail(s) <= limit) return s;
  return Math.max(from, safeAtOrBefore(view.safe, view.n - 1));
}

/** The reply priming every request costs on top of its messages (cookbook: 3 tokens). */
const REPLY_PRIMING = 3;
/** Trigger share of the budget, as the default of durable-compaction. */
const TRIGGER = 0.9;
/** Anthropic's server-side compaction triggers at 150 000 input tokens by default, of a 200 000 window. */
const COMPACTION_TRIGGER = 0.75;

/** Drops the oldest messages, once the context is over `share` of the budget, until it fits that share again. */
const truncateAbove =
  (share: number): CutRule =>
  (v) =>
    v.contextTokens > share * v.budget
      ? firstFitting(v, v.window.first, share * v.budget - (v.contextTokens - v.tail(v.window.first)))
      : undefined;

const rules: Record<
  Exclude<StrategyName, 'durable-compaction' | 'anthropic-clear-tool-uses'>,
  { summarize: boolean; cut: CutRule }
> = {
  'no-compaction': { summarize: false, cut: () => undefined },
  // Summarise on trigger, keeping the last 20 messages (moved back to a safe cut).
  'keep-last-20': {
    summarize: true,
    cut: (v) => (v.contextTokens >= TRIGGER * v.budget ? safeAtOrBefore(v.safe, Math.max(0, v.n - 20)) : undefined),
  },
  // A running summary (summary-buffer memory): every request, what slid out of a tail of 0.7 × budget is summarised.
  'sliding-window': { summarize: true, cut: (v) => firstFitting(v, v.window.first, 0.7 * v.budget) },
  // Drop the oldest messages to fit the trigger share of the budget, no summary.
  'truncate-oldest': { summarize: false, cut: truncateAbove(TRIGGER) },
  // OpenAI Responses `truncation: 'auto'`: past the context window, items are dropped from the start until it fits.
  'openai-truncation-auto': { summarize: false, cut: truncateAbove(1) },
  // Anthropic's server-side compaction (`compact_20260112`): at its trigger the whole conversation, earlier summary
  // included, becomes one summary, and later requests send that summary and what followed it.
  'anthropic-compaction': {
    summarize: true,
    cut: (v) => (v.contextTokens >= COMPACTION_TRIGGER * v.budget ? v.n : undefined),
  },
};

/** @returns the strategy `name` for one session. */
export function createStrategy(name: StrategyName, env: StrategyEnv): Strategy {
  if (name === 'durable-compaction') {
    const conv = new InProcessConversation(env.conversationId, { budget: env.budget, model: env.model });
    let seen = 0;
    return {
      name,
      async next(all) {
        const step = await conv.prepare(all.slice(seen));
        seen = all.length;
        return { context: step.context, summaries: step.summary ? [step.summary] : [] };
      },
    };
  }
  if (name === 'anthropic-clear-tool-uses') return clearToolUsesStrategy(env.budget);
  const rule = rules[name];
  const summarizer = createSummarizer({ mode: 'extractive' }, { counterFor: () => env.counter });
  const window: Window = { first: 0, summary: null };
  return {
    name,
    async next(all, counts) {
      const items = normalize(all, 'chat').items;
      const instructions = items.filter((i) => i.role === 'instructions').map((i) => i.index);
      const isInstr = new Set(instructions);
      const suffix = new Array<number>(all.length + 1).fill(0);
      for (let i = all.length - 1; i >= 0; i--) suffix[i] = suffix[i + 1]! + (isInstr.has(i) ? 0 : counts[i]!);
      const fixed = instructions.reduce((sum, i) => sum + counts[i]!, 0) + REPLY_PRIMING;
      const contextTokens = fixed + (window.summary?.tokens ?? 0) + suffix[window.first]!;
      const cut = rule.cut({
        n: all.length,
        budget: env.budget,
        window,
        contextTokens,
        tail: (s) => suffix[s]!,
        safe: safeCuts(items),
      });
      const summaries: StrategyStep['summaries'] = [];
      if (cut !== undefined && cut > window.first) {
        if (rule.summarize) {
          const head = [
            ...(window.summary ? [window.summary.raw] : []),
            ...all.slice(window.first, cut).filter((_, k) => !isInstr.has(window.first + k)),
          ];
          const read = (window.summary?.tokens ?? 0) + suffix[window.first]! - suffix[cut]!;
          const result = await summarizer({
            format: 'chat',
            messages: head,
            budget: env.budget,
            model: env.model,
            foldedTokens: read,
          });
          if (result.ok && result.text !== undefined) {
            const raw = adapterFor('chat').summaryItem(result.text, { droppedCount: head.length, summarizedIds: [] });
            const tokens = env.counter.countMessages([raw], 'chat')[0]!;
            window.summary = { raw, tokens };
            summaries.push({ read, written: tokens });
          }
        }
        window.first = cut;
      }
      const tail = all.slice(window.first).filter((_, k) => !isInstr.has(window.first + k));
      return {
        context: [...instructions.map((i) => all[i]), ...(window.summary ? [window.summary.raw] : []), ...tail],
        summaries,
      };
    },
  };
}

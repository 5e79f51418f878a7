/**
 * The fold-survival run: a planted session is fed to a live context one message at a time and folded through the
 * real fold path whenever it reaches the trigger (`planFold` → eviction of stale tool output → the summarizer →
 * `applyFold`), at a budget that decreases fold by fold. After every fold it records which canaries the context
 * still holds, which superseded values it still states, and the summary's size against the original tokens it
 * stands for.
 */
import { CLIP_RATIO } from '../../src/activities';
import { applyFold } from '../../src/core/fold/apply';
import { evictStaleToolResults } from '../../src/core/fold/evict';
import { foldOrder } from '../../src/core/fold/layout';
import { adapterFor } from '../../src/core/messages/adapter-for-format';
import { normalize } from '../../src/core/messages/normalize';
import { clipItem } from '../../src/core/plan/clip-oversized';
import { planFold } from '../../src/core/plan/plan';
import { createSummarizer } from '../../src/summarizers';
import type { Summarizer, SummarizerConfig } from '../../src/summarizers';
import type { TokenCounter } from '../../src/tokens';
import { argumentText } from '../../src/core/fold/identifiers';
import type { Planted } from './plant';

type Message = Record<string, unknown>;

/** One fold of a run. */
export interface FoldRound {
  round: number;
  budget: number;
  ok: boolean;
  /** Messages of the planted session ingested when it folded. */
  ingested: number;
  /** Tokens the summarizer was given, and the summary's tokens. */
  foldedTokens: number;
  summaryTokens: number;
  /** Original tokens (before any clipping) of every message the summary now stands for. */
  coveredTokens: number;
  /** Canaries planted so far, and those the context holds; updates whose old value it still states. */
  planted: Planted[];
  kept: Set<string>;
  stale: Set<string>;
  /** Updates folded together with their original (the only ones a summary can be blamed for). */
  staleEligible: Set<string>;
  /** The summary text of this fold. */
  summary: string;
}

/** Options of {@link runFolds}. */
export interface RunOptions {
  /** Budget of each fold (the last one is reused if the run goes on). */
  budgets: readonly number[];
  /** Stop after this many folds. */
  folds: number;
  counter: TokenCounter;
  model?: string;
  summarizer?: SummarizerConfig;
  /** A summarizer to use instead of `createSummarizer(summarizer)` (a control for the harness itself). */
  summarize?: Summarizer;
  canaries?: readonly Planted[];
}

interface LiveMessage {
  raw: Message;
  seq: number | null;
  tokens: number;
}

/** Every line the model would read: each message's text, and its call arguments. */
export function contextLines(raws: readonly unknown[]): string[] {
  return normalize([...raws], 'chat').items.flatMap((i) => [
    ...i.text.split('\n'),
    ...i.calls.flatMap((c) => argumentText(c.arguments).split('\n')),
  ]);
}

const has = (lines: readonly string[], probes: readonly string[]): boolean => {
  const p = probes.map((x) => x.toLowerCase());
  return lines.some((l) => {
    const low = l.toLowerCase();
    return p.every((x) => low.includes(x));
  });
};

/**
 * Runs a session through folds.
 *
 * @returns one record per fold attempted (at most `folds`)
 */
export async function runFolds(messages: readonly Message[], options: RunOptions): Promise<FoldRound[]> {
  const { counter } = options;
  const model = options.model ?? 'gpt-4o';
  const summarize = options.summarize ?? createSummarizer(options.summarizer ?? {}, { counterFor: () => counter });
  const adapter = adapterFor('chat');
  const original = counter.countMessages([...messages], 'chat');
  let live: LiveMessage[] = [];
  const rounds: FoldRound[] = [];
  let backoffUntil = 0;
  for (let seq = 0; seq < messages.length && rounds.length < options.folds; seq++) {
    const budget = options.budgets[Math.min(rounds.length, options.budgets.length - 1)]!;
    const raw = messages[seq]!;
    const clipped = clipItem(
      adapter.toItem(raw, 0),
      original[seq]!,
      Math.floor(CLIP_RATIO * budget),
      `the archive (message #${seq})`,
      adapter
    );
    const kept = (clipped?.raw as Message | undefined) ?? raw;
    live.push({ raw: kept, seq, tokens: clipped ? counter.countMessage(kept, 'chat') : original[seq]! });
    if (live.length < backoffUntil) continue;
    const raws = live.map((l) => l.raw);
    const transcript = normalize(raws, 'chat');
    const plan = planFold({
      transcript,
      tokens: live.map((l) => l.tokens),
      fixedTokens: counter.replyPriming,
      options: { budget },
    });
    if (!plan.fold) continue;
    const head = normalize(
      plan.summarize.map((i) => raws[i]),
      'chat'
    );
    const evicted = evictStaleToolResults(head, { budget, keepReminders: true }).raws;
    const res = await summarize({
      format: 'chat',
      messages: evicted,
      seqs: plan.summarize.map((i) => live[i]!.seq),
      budget,
      model,
      foldedTokens: plan.foldedTokens,
    });
    const base = { round: rounds.length + 1, budget, ingested: seq + 1, foldedTokens: plan.foldedTokens };
    if (!res.ok || res.text === undefined) {
      rounds.push({
        ...base,
        ok: false,
        summaryTokens: 0,
        coveredTokens: 0,
        planted: [],
        kept: new Set(),
        stale: new Set(),
        staleEligible: new Set(),
        summary: '',
      });
      backoffUntil = live.length + 4;
      continue;
    }
    const folded = applyFold({ transcript, plan, summary: { kind: 'text', text: res.text } });
    const { front, after } = foldOrder(transcript, plan);
    const next: LiveMessage[] = [
      ...front.map((i) => live[i]!),
      { raw: {}, seq: null, tokens: 0 },
      ...after.map((i) => live[i]!),
    ];
    live = next.map((l, k) => ({ ...l, raw: folded[k] as Message }));
    live[front.length]!.tokens = counter.countMessage(live[front.length]!.raw, 'chat');
    const liveSeqs = new Set(live.map((l) => l.seq));
    let coveredTokens = 0;
    for (let q = 0; q <= seq; q++) if (!liveSeqs.has(q)) coveredTokens += original[q]!;
    const lines = contextLines(live.map((l) => l.raw));
    const summaryLines = res.text.split('\n');
    const planted = (options.canaries ?? []).filter((c) => c.at <= seq);
    const keptIds = new Set(planted.filter((c) => has(lines, c.canary.probes)).map((c) => c.canary.id));
    const eligible = planted.filter((c) => c.canary.original && !liveSeqs.has(c.at));
    const stale = new Set(eligible.filter((c) => has(summaryLines, c.canary.original!.stale)).map((c) => c.canary.id));
    rounds.push({
      ...base,
      ok: true,
      summaryTokens: res.summaryTokens,
      coveredTokens,
      planted,
      kept: keptIds,
      stale,
      staleEligible: new Set(eligible.map((c) => c.canary.id)),
      summary: res.text,
    });
  }
  return rounds;
}

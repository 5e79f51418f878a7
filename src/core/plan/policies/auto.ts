import { CARRIED_RESERVE_SHARE } from '../options';
import type { Policy, PolicyContext } from './types';
import { shortestSafeTail } from './tokens';

/** The turn-opening user message of the turn that contains cut `s`, when the cut is inside that turn. */
function openerOf(ctx: PolicyContext, s: number): number | undefined {
  if (ctx.items[s]?.turnStart) return undefined;
  for (let i = s - 1; i >= 0; i--) if (ctx.items[i]!.turnStart) return i;
  return undefined;
}

/** The turn opener to keep verbatim for a cut at `s`, when `pinTurnOpening` is on and the opener is small enough. */
function openerToKeep(ctx: PolicyContext, s: number): number | undefined {
  const t = openerOf(ctx, s);
  if (t === undefined || ctx.options.pinTurnOpening <= 0) return undefined;
  return ctx.tokens[t]! <= ctx.options.pinTurnOpening * ctx.options.budget ? t : undefined;
}

/**
 * The tokens set aside for the summary: `summaryReserveTokens`, or with a `carried` reserve at least what the earlier
 * summaries in the transcript take, up to `CARRIED_RESERVE_SHARE × budget`.
 *
 * @returns the reserve in tokens
 */
function summaryReserve(ctx: PolicyContext): number {
  const { summaryReserveTokens, summaryReserve: how, budget } = ctx.options;
  if (how !== 'carried') return summaryReserveTokens;
  const carried = ctx.items.reduce((sum, item, i) => sum + (item.role === 'summary' ? ctx.tokens[i]! : 0), 0);
  return Math.max(summaryReserveTokens, Math.min(carried, Math.floor(CARRIED_RESERVE_SHARE * budget)));
}

/** Size of the folded context for a cut at `s`, without the summary itself. */
function keptCost(ctx: PolicyContext, s: number, opener: number | undefined): number {
  const openerTokens =
    opener !== undefined && ctx.verbatimBefore[opener + 1] === ctx.verbatimBefore[opener] ? ctx.tokens[opener]! : 0;
  return ctx.fixedTokens + ctx.instructionTokens + ctx.verbatimBefore[s]! + ctx.tailTokens[s]! + openerTokens;
}

/**
 * `auto` — the default, built for real agent sessions (a handful of user turns, up to hundreds of tool calls).
 *
 * Target: the folded context — fixed tokens, hoisted instructions, pinned items, the tail and a summary reserve of
 * `summaryReserveTokens` (default min(budget/10, 4096); with `summaryReserve: 'carried'` at least what the earlier
 * summaries take, up to a quarter of the budget, so the tail shrinks before what they carry is cut) — fits
 * `targetRatio × budget` (default 0.5). With the
 * trigger at 0.9 a fold therefore lands near half the budget, so a conversation folds again only after growing by
 * about 40% of the budget: no fold-every-turn thrash.
 *
 * Cut: the longest safe tail within the target. The earliest user-turn boundary within the target is preferred when
 * its tail keeps at least `turnPreference` (default 0.5) of that; otherwise the cut lands on a safe point inside a
 * long turn, and that turn's opening user message is pinned (kept verbatim after the summary) when it costs at most
 * `pinTurnOpening × budget` (default 0.1), so the task statement is never paraphrased away. When no safe cut meets
 * the target, the shortest safe non-empty tail is kept.
 */
export const autoPolicy: Policy = (ctx) => {
  const n = ctx.items.length;
  const reserve = summaryReserve(ctx);
  const target = Math.floor(ctx.options.targetRatio * ctx.options.budget) - reserve;
  const room = ctx.options.summaryReserve === 'carried' ? { carriedRoomTokens: reserve } : {};
  let anyCut: number | undefined;
  let turnCut: number | undefined;
  for (let s = ctx.firstBody + 1; s < n && (anyCut === undefined || turnCut === undefined); s++) {
    if (!ctx.safe[s]) continue;
    const turn = ctx.items[s]!.turnStart;
    if (anyCut === undefined && keptCost(ctx, s, turn ? undefined : openerToKeep(ctx, s)) <= target) anyCut = s;
    if (turnCut === undefined && turn && keptCost(ctx, s, undefined) <= target) turnCut = s;
  }
  if (
    turnCut !== undefined &&
    (anyCut === undefined || ctx.tailTokens[turnCut]! >= ctx.options.turnPreference * ctx.tailTokens[anyCut]!)
  ) {
    return {
      kind: 'cut',
      ...room,
      split: turnCut,
      reason: `auto: cut at the user turn starting at item ${turnCut}, within the target of ${target} tokens`,
    };
  }
  if (anyCut !== undefined) {
    const opener = openerToKeep(ctx, anyCut);
    return {
      kind: 'cut',
      ...room,
      split: anyCut,
      reason: `auto: cut at a safe point inside a turn, within the target of ${target} tokens`,
      ...(opener === undefined ? {} : { verbatimOpener: opener }),
    };
  }
  const s = shortestSafeTail(ctx);
  if (s === undefined) return { kind: 'decline', reason: 'auto: no safe cut keeps an item and folds one' };
  const opener = openerToKeep(ctx, s);
  return {
    kind: 'cut',
    ...room,
    split: s,
    reason: `auto: no safe cut meets the target of ${target} tokens; keeping the shortest safe tail`,
    ...(opener === undefined ? {} : { verbatimOpener: opener }),
  };
};

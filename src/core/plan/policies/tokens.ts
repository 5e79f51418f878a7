import type { Policy, PolicyContext } from './types';

/** The largest safe cut that still folds something and keeps at least one item, or undefined. */
export function shortestSafeTail(ctx: PolicyContext): number | undefined {
  const n = ctx.items.length;
  for (let s = n - 1; s > ctx.firstBody; s--) if (ctx.safe[s]) return s;
  return undefined;
}

/**
 * `tokens` — keep the longest safe tail whose non-instructions items fit `tailRatio × budget` (default 0.4). When no
 * safe tail fits, keep the shortest safe non-empty tail (an oversized item is for clip.ts to shrink).
 */
export const tokensPolicy: Policy = (ctx) => {
  const n = ctx.items.length;
  const limit = Math.floor(ctx.options.tailRatio * ctx.options.budget);
  for (let s = ctx.firstBody + 1; s < n; s++) {
    if (ctx.safe[s] && ctx.tailTokens[s]! <= limit) {
      return { kind: 'cut', split: s, reason: `tokens: the longest safe tail within ${limit} tokens` };
    }
  }
  const s = shortestSafeTail(ctx);
  if (s === undefined) return { kind: 'decline', reason: 'tokens: no safe cut keeps an item and folds one' };
  return { kind: 'cut', split: s, reason: `tokens: no safe tail fits ${limit} tokens; keeping the shortest` };
};

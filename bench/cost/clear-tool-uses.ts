/**
 * Anthropic's server-side tool-result clearing (`context_management` edit `clear_tool_uses_20250919`), simulated by
 * its published rules: the client keeps sending the whole history; once its input reaches the trigger (published
 * default 100 000 input tokens of a 200 000 window, so half the budget here), the API replaces the content of every
 * tool result but the last `keep` (default 3) with a placeholder, oldest first. Tool calls are kept
 * (`clear_tool_inputs` defaults to false) and no summary is written.
 */
import type { Strategy, StrategyStep } from './strategies';

/** The trigger as a share of the budget (100 000 of 200 000). */
const TRIGGER_SHARE = 0.5;
/** Tool results kept verbatim. */
const KEEP = 3;
const PLACEHOLDER = '[tool result cleared]';

/** @returns the clearing strategy for one session at `budget`. */
export function clearToolUsesStrategy(budget: number): Strategy {
  // One cleared copy per message, so the cleared prefix stays byte-identical from request to request.
  const cleared = new Map<number, unknown>();
  return {
    name: 'anthropic-clear-tool-uses',
    next(all, counts): Promise<StrategyStep> {
      const total = counts.reduce((a, b) => a + b, 0);
      if (total < TRIGGER_SHARE * budget) return Promise.resolve({ context: [...all], summaries: [] });
      const results = all.flatMap((m, i) => ((m as { role?: string }).role === 'tool' ? [i] : []));
      const clear = new Set(results.slice(0, Math.max(0, results.length - KEEP)));
      const context = all.map((m, i) => {
        if (!clear.has(i)) return m;
        let c = cleared.get(i);
        if (c === undefined) {
          c = { ...(m as object), content: PLACEHOLDER };
          cleared.set(i, c);
        }
        return c;
      });
      return Promise.resolve({ context, summaries: [] });
    },
  };
}

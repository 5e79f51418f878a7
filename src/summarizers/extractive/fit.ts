/** Token-capped selection helpers of the extractive digest. */
import { ELLIPSIS, safePrefix } from '../../core/fold/text-clip';

/** A token measure. */
export type Count = (text: string) => number;

/**
 * Clips `text` to at most `maxTokens` by `count`, rune-safe, with an ellipsis when cut.
 *
 * @returns the text, clipped ("" when not even the ellipsis fits)
 */
export function clipToTokens(text: string, maxTokens: number, count: Count): string {
  if (count(text) <= maxTokens) return text;
  let lo = 0;
  let hi = text.length;
  // Binary search on length: token counts grow with prefix length (not strictly, but closely enough for a cap).
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (count(safePrefix(text, mid) + ELLIPSIS) <= maxTokens) lo = mid;
    else hi = mid - 1;
  }
  return lo === 0 ? '' : safePrefix(text, lo).trimEnd() + ELLIPSIS;
}

/**
 * Takes lines in the given order while their total (one token per newline added) stays within `maxTokens`.
 *
 * @returns the lines taken, in input order, and the tokens used
 */
export function takeWithin(
  lines: readonly string[],
  maxTokens: number,
  count: Count
): { taken: string[]; used: number } {
  const taken: string[] = [];
  let used = 0;
  for (const line of lines) {
    const cost = count(line) + 1;
    if (used + cost > maxTokens) break;
    taken.push(line);
    used += cost;
  }
  return { taken, used };
}

import type { Item } from '../../messages/types';
import type { Policy } from './types';

/** The `rounds` policy skips a compression of fewer rounds than this. */
export const MIN_COMPRESS_ROUNDS = 3;

/**
 * Start indices of the rounds: each real user turn opens one; items before the first turn form a round too when
 * they hold anything but instructions (a previous summary, for example), as a summary round does.
 */
export function roundStarts(items: readonly Item[]): number[] {
  const starts = items.filter((it) => it.turnStart).map((it) => it.index);
  const first = starts[0] ?? items.length;
  if (items.slice(0, first).some((it) => it.role !== 'instructions')) starts.unshift(0);
  return starts;
}

/**
 * `rounds` — fires on the round count, not on tokens. `compress` (default) folds the oldest
 * `min(floor(R/2), R-1)` rounds when there are more than `maxRounds` (default 10) and at least 3 to fold; `truncate`
 * drops the oldest rounds without a summary until `maxRounds` remain.
 */
export const roundsPolicy: Policy = ({ items, options }) => {
  const starts = roundStarts(items);
  const r = starts.length;
  const max = Math.max(1, Math.floor(options.maxRounds));
  if (r <= max) return { kind: 'decline', reason: `rounds: ${r} round(s), at most ${max} kept` };
  if (options.roundsMode === 'truncate') {
    return { kind: 'truncate', split: starts[r - max]!, reason: `rounds: drop the oldest ${r - max} of ${r} rounds` };
  }
  const fold = Math.min(Math.floor(r / 2), r - 1);
  if (fold < MIN_COMPRESS_ROUNDS) {
    return { kind: 'decline', reason: `rounds: ${fold} round(s) to fold, under the minimum of ${MIN_COMPRESS_ROUNDS}` };
  }
  return { kind: 'cut', split: starts[fold]!, reason: `rounds: fold the oldest ${fold} of ${r} rounds` };
};

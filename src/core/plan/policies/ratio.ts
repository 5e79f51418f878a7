import type { Policy } from './types';

/**
 * `ratio` — a share of the items: keep the last `max(2, ceil(n × 0.25))` items, or `keepRecentCount` when set (it replaces the
 * formula unconditionally, 0 included); fewer than 4 items keep everything.
 */
export const ratioPolicy: Policy = ({ items, options }) => {
  const n = items.length;
  if (n < 4) return { kind: 'decline', reason: `ratio: ${n} item(s) is under the minimum of 4` };
  const keep = options.keepRecentCount ?? Math.max(2, Math.ceil(n * 0.25));
  const split = n - keep;
  if (split <= 0) return { kind: 'decline', reason: `ratio: keeping ${keep} of ${n} items leaves nothing to fold` };
  return { kind: 'cut', split, reason: `ratio: keep the last ${keep} of ${n} items` };
};

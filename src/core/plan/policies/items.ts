import type { Policy } from './types';

/**
 * `items` — a count of trailing items: keep the last `keepLast` items (default 4); the shared safe-cut walk then moves the cut back
 * so no kept result loses its call, even with items between them or parallel calls.
 */
export const itemsPolicy: Policy = ({ items, options }) => {
  const split = Math.max(items.length - options.keepLast, 0);
  if (split <= 0)
    return { kind: 'decline', reason: `items: keeping ${options.keepLast} of ${items.length} leaves nothing to fold` };
  return { kind: 'cut', split, reason: `items: keep the last ${options.keepLast} items` };
};

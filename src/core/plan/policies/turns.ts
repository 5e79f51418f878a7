import type { Policy } from './types';

/**
 * `turns` — whole user turns: cut at the start of a real user turn so the last `keepTurns` turns (default 8) stay raw. A user
 * message that only carries tool results is not a turn start (see `Item.turnStart`).
 */
export const turnsPolicy: Policy = ({ items, options }) => {
  const k = Math.max(1, Math.floor(options.keepTurns));
  const starts = items.filter((it) => it.turnStart).map((it) => it.index);
  if (starts.length <= k) return { kind: 'decline', reason: `turns: ${starts.length} user turn(s), keeping ${k}` };
  const split = starts[starts.length - k]!;
  if (split <= 0) return { kind: 'decline', reason: 'turns: the kept turns start at the first item' };
  return { kind: 'cut', split, reason: `turns: keep the last ${k} of ${starts.length} user turns` };
};

/**
 * The safety rules every policy shares, in one place. A cut at `s` folds items `[0, s)` (instructions excepted, they
 * are hoisted) and keeps `[s, n)`. A cut is safe when:
 * - every call in the folded part has all its results in the folded part (a call and its results stay together);
 * - no call in the folded part is still unanswered (a pending call is never folded);
 * - the last folded item is not a reasoning item (reasoning belongs to the item that follows it).
 * Instructions are never summarised: they are hoisted to the front whatever the cut (see `planFold`).
 */
import { answersOf } from '../messages/answers';
import type { Item } from '../messages/types';

/**
 * Which cuts are safe.
 * @returns an array of length n + 1; entry s is true when cutting before item s is safe. Entry 0 is always true.
 */
export function safeCuts(items: readonly Item[]): boolean[] {
  const n = items.length;
  // lastResult[c] = furthest index of a result answering a call made by item c.
  const lastResult = new Map<number, number>();
  const answered = new Set<string>();
  for (const item of items) {
    for (const a of answersOf(item)) {
      answered.add(`${a.itemIndex}:${a.callIndex}`);
      lastResult.set(a.itemIndex, Math.max(lastResult.get(a.itemIndex) ?? a.itemIndex, item.index));
    }
  }
  // Difference array over cut positions: +1 where an unsafe range starts, -1 after it ends.
  const diff = new Array<number>(n + 2).fill(0);
  const block = (from: number, to: number): void => {
    if (from > to) return;
    diff[from]! += 1;
    diff[to + 1]! -= 1;
  };
  for (const item of items) {
    if (item.calls.length > 0) {
      const pending = item.calls.some((_, c) => !answered.has(`${item.index}:${c}`));
      block(item.index + 1, pending ? n : (lastResult.get(item.index) ?? item.index));
    }
    if (item.role === 'reasoning') block(item.index + 1, item.index + 1);
  }
  const safe: boolean[] = [];
  let depth = 0;
  for (let s = 0; s <= n; s++) {
    depth += diff[s]!;
    safe.push(s === 0 || depth === 0);
  }
  return safe;
}

/** The largest safe cut at or before `s` (0 when there is none). */
export function safeAtOrBefore(safe: readonly boolean[], s: number): number {
  for (let k = Math.min(s, safe.length - 1); k > 0; k--) if (safe[k]) return k;
  return 0;
}

/**
 * Groups of items that must stay on the same side of a cut and be kept or folded together: a call with all its
 * results, and a reasoning item with the item after it.
 * @returns for each item the index of its group's first member.
 */
export function cutGroups(items: readonly Item[]): number[] {
  const parent = items.map((_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]!]!;
    return i;
  };
  const union = (a: number, b: number): void => {
    const ra = find(a);
    const rb = find(b);
    if (ra !== rb) parent[Math.max(ra, rb)] = Math.min(ra, rb);
  };
  for (const item of items) {
    for (const a of answersOf(item)) union(a.itemIndex, item.index);
    if (item.role === 'reasoning' && item.index + 1 < items.length) union(item.index, item.index + 1);
  }
  return items.map((_, i) => find(i));
}

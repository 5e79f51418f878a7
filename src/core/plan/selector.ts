import { answersOf } from '../messages/pair';
import type { Item } from '../messages/types';
import type { CompactionOptions, ItemSelector } from './options';

/**
 * Whether an item matches a selector: by id, role, caller index, or tool name (a call making that tool, or a result
 * answering one).
 */
export function matchesSelector(item: Item, selector: ItemSelector | undefined): boolean {
  if (!selector) return false;
  if (item.id !== undefined && selector.ids?.includes(item.id)) return true;
  if (selector.roles?.includes(item.role)) return true;
  if (selector.indices?.includes(item.index)) return true;
  const tools = selector.tools;
  if (tools && tools.length > 0) {
    if (item.calls.some((c) => tools.includes(c.name))) return true;
    if (answersOf(item).some((a) => tools.includes(a.name))) return true;
  }
  return false;
}

/** A selector and an optional predicate, combined: an item is selected when either says so. */
export function selectWith(
  selector: ItemSelector | undefined,
  predicate: ((item: Item) => boolean) | undefined
): (item: Item) => boolean {
  return (item) => matchesSelector(item, selector) || (predicate ? predicate(item) : false);
}

/**
 * @returns `options` with the items at `indices` added to its keep-verbatim selector (`pin`), so every fold keeps them
 *   verbatim after the summary; `options` itself when there are none.
 */
export function keepVerbatim<O extends CompactionOptions>(options: O, indices: readonly number[]): O {
  if (indices.length === 0) return options;
  return { ...options, pin: { ...options.pin, indices: [...(options.pin?.indices ?? []), ...indices] } };
}

import type { Item } from '../messages/types';
import type { ResolvedOptions } from './options';
import type { PolicyContext } from './policies/types';
import { cutGroups, safeCuts } from './safe-cut';

/**
 * Expands a set of selected items to their whole cut groups (a call with its results, reasoning with what follows),
 * so an item kept verbatim never leaves its partner behind. Instructions are excluded: they are hoisted anyway.
 */
export function expandToGroups(items: readonly Item[], selected: (item: Item) => boolean): Set<number> {
  const groups = cutGroups(items);
  const chosen = new Set<number>();
  items.forEach((it, i) => {
    if (selected(it)) chosen.add(groups[i]!);
  });
  const out = new Set<number>();
  items.forEach((it, i) => {
    if (chosen.has(groups[i]!) && it.role !== 'instructions') out.add(i);
  });
  return out;
}

/** Builds the precomputed sums a policy works from. */
export function policyContext(
  items: readonly Item[],
  tokens: readonly number[],
  options: ResolvedOptions,
  fixedTokens: number,
  keptVerbatim: ReadonlySet<number>
): PolicyContext {
  const n = items.length;
  const tailTokens = new Array<number>(n + 1).fill(0);
  for (let i = n - 1; i >= 0; i--) {
    tailTokens[i] = tailTokens[i + 1]! + (items[i]!.role === 'instructions' ? 0 : tokens[i]!);
  }
  const verbatimBefore = new Array<number>(n + 1).fill(0);
  for (let i = 0; i < n; i++) verbatimBefore[i + 1] = verbatimBefore[i]! + (keptVerbatim.has(i) ? tokens[i]! : 0);
  let instructionTokens = 0;
  let firstBody = n;
  items.forEach((it, i) => {
    if (it.role === 'instructions') instructionTokens += tokens[i]!;
    else if (firstBody === n) firstBody = i;
  });
  return {
    items,
    tokens,
    options,
    safe: safeCuts(items),
    fixedTokens,
    instructionTokens,
    tailTokens,
    verbatimBefore,
    firstBody,
  };
}

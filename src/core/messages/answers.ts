/**
 * The calls an item answers. Most formats hold one result per element (`answers`); Gemini and the AI SDK hold several
 * in one element (`answers` plus `alsoAnswers`). Every rule about calls and results reads them through here.
 */
import type { CallAnswer, Item } from './types';

/** @returns every call the item answers, in the order its results appear (empty for an item that is no result). */
export function answersOf(item: Item): CallAnswer[] {
  if (!item.answers) return [];
  return item.alsoAnswers ? [item.answers, ...item.alsoAnswers] : [item.answers];
}

/** @returns the answered calls of a paired transcript as `itemIndex:callIndex` keys. */
export function answeredCalls(items: readonly Item[]): Set<string> {
  const out = new Set<string>();
  for (const item of items) for (const a of answersOf(item)) out.add(`${a.itemIndex}:${a.callIndex}`);
  return out;
}

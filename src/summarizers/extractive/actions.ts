/** One line per tool action: the tool's name and its key argument; repeats merged with a count. */
import { clip } from '../../core/fold/text-clip';
import type { Item } from '../../core/messages/types';
import { keyArgument } from '../../core/fold/key-argument';

/** A distinct tool action of the head. */
export interface Action {
  name: string;
  arg: string;
  times: number;
  /** Item index of the latest time it was made. */
  lastIndex: number;
}

/**
 * The distinct actions of the head, in order of first appearance.
 *
 * @param argClip clip of the key argument, in characters
 * @returns the actions
 */
export function collectActions(items: readonly Item[], argClip: number): Action[] {
  const byKey = new Map<string, Action>();
  for (const item of items) {
    for (const call of item.calls) {
      const arg = clip(keyArgument(call.arguments), argClip);
      const key = `${call.name}\u0000${arg}`;
      const seen = byKey.get(key);
      if (seen) {
        seen.times += 1;
        seen.lastIndex = item.index;
      } else byKey.set(key, { name: call.name, arg, times: 1, lastIndex: item.index });
    }
  }
  return [...byKey.values()];
}

/**
 * One action's line.
 *
 * @returns `- NAME: ARG`, with ` (×N)` for repeats
 */
export function actionLine(a: Action): string {
  const times = a.times > 1 ? ` (×${a.times})` : '';
  return a.arg ? `- ${a.name}: ${a.arg}${times}` : `- ${a.name}${times}`;
}

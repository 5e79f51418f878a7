/** Errors seen in tool output: the first line that reads like an error, with the call that produced it. */
import { errorLine } from '../../core/fold/error-line';
import type { Item } from '../../core/messages/types';

/** One error seen. */
export interface SeenError {
  /** The tool whose result showed it. */
  tool: string;
  line: string;
  index: number;
}

/**
 * The errors in the head's tool results, one per result, deduplicated by line.
 *
 * @param clipAt clip of the error line, in characters
 * @returns the errors in order
 */
export function collectErrors(items: readonly Item[], clipAt: number): SeenError[] {
  const out: SeenError[] = [];
  const seen = new Set<string>();
  for (const item of items) {
    if (item.role !== 'tool' && item.role !== 'activity') continue;
    const text = errorLine(item.text, clipAt);
    if (!text || seen.has(text)) continue;
    seen.add(text);
    out.push({ tool: item.answers?.name ?? item.role, line: text, index: item.index });
  }
  return out;
}

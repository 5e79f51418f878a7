/**
 * Prefix reuse: how much of a context repeats, from its first message, the context sent before it. A provider's
 * prompt cache serves exactly that part at a discount, so it is reported with every `prepare` (and as metrics).
 */
import { sameKey, type EntryKey } from './patch';

/** The part of a context that repeats the previous one as a prefix, and the context's size, in counted tokens. */
export interface PrefixReuse {
  messages: number;
  tokens: number;
  /** Counted tokens of the whole context's messages (without reply priming and tools). */
  contextTokens: number;
}

/**
 * Compares the messages of two contexts in order, by identity and revision (a rewritten message is not reused).
 * @param known what the caller knows already: `from`, a length up to which `after` repeats `before` (compared on from
 *   there), and `contextTokens`, the tokens of all of `after`; with both, the work is O(messages after the prefix).
 * @returns the shared prefix of `after` with `before`, in messages and tokens.
 */
export function prefixReuse(
  before: readonly EntryKey[],
  after: readonly (EntryKey & { tokens: number })[],
  known?: { from: number; contextTokens: number }
): PrefixReuse {
  const limit = Math.min(before.length, after.length);
  let messages = Math.min(known?.from ?? 0, limit);
  while (messages < limit && sameKey(before[messages]!, after[messages]!)) messages++;
  // The tokens after the prefix, summed; the prefix's are the rest of the whole context's.
  let rest = 0;
  for (let i = messages; i < after.length; i++) rest += after[i]!.tokens;
  let contextTokens = known?.contextTokens;
  if (contextTokens === undefined) {
    contextTokens = rest;
    for (let i = 0; i < messages; i++) contextTokens += after[i]!.tokens;
  }
  return { messages, tokens: contextTokens - rest, contextTokens };
}

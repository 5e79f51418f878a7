/**
 * Prefix reuse: how much of a context repeats, from its first message, the context sent before it. A provider's
 * prompt cache serves exactly that part at a discount, so it is reported with every `prepare` (and as metrics).
 */
import type { EntryKey } from './patch';

/** The part of a context that repeats the previous one as a prefix, and the context's size, in counted tokens. */
export interface PrefixReuse {
  messages: number;
  tokens: number;
  /** Counted tokens of the whole context's messages (without reply priming and tools). */
  contextTokens: number;
}

/**
 * Compares the messages of two contexts in order, by identity and revision (a rewritten message is not reused).
 * @returns the shared prefix of `after` with `before`, in messages and tokens.
 */
export function prefixReuse(
  before: readonly EntryKey[],
  after: readonly (EntryKey & { tokens: number })[]
): PrefixReuse {
  let messages = 0;
  let tokens = 0;
  let contextTokens = 0;
  let shared = true;
  after.forEach((entry, i) => {
    contextTokens += entry.tokens;
    const old = before[i];
    shared &&= old !== undefined && old.uid === entry.uid && old.rev === entry.rev;
    if (shared) {
      messages++;
      tokens += entry.tokens;
    }
  });
  return { messages, tokens, contextTokens };
}

/**
 * The remembered-fold transform's memory, as pure functions: which view of the caller's transcript to send (the remembered fold's
 * output in place of the prefix it replaced, while the transcript still starts with that prefix), and what to
 * remember after a new fold. Also the content keys per-message counts are stored under.
 *
 * Two in-memory caches avoid rehashing what was already hashed in this run: content keys per message object, and the
 * message objects of the last prefix that matched. Both assume the caller does not mutate a message object in place
 * after handing it over (replace it instead); they are rebuilt on replay, so they never change a decision.
 */
import { canonicalJson, prefixHash, sha256Hex } from '../../core/hash';
import type { FoldMemory } from './compactor-state';

/** Hex digits of a content key: 96 bits, so an accidental collision among a context's messages is not a concern. */
const KEY_HEX = 24;

const keyCache = new WeakMap<object, string>();

/**
 * The key a message's token count is stored under: a truncated SHA-256 of its canonical JSON, so equal content gets
 * the same key in any run, whatever order its fields were written in.
 * @returns 24 hex characters.
 * @throws CanonicalJsonError when the message is cyclic or holds a bigint.
 */
export function contentKey(raw: unknown): string {
  const cacheable = typeof raw === 'object' && raw !== null;
  if (cacheable) {
    const cached = keyCache.get(raw);
    if (cached !== undefined) return cached;
  }
  const key = sha256Hex(canonicalJson(raw)).slice(0, KEY_HEX);
  if (cacheable) keyCache.set(raw, key);
  return key;
}

/** The context to send for a transcript, and how it relates to the memory. */
export interface View {
  /** `output ++ messages[prefixLen:]` when the memory holds, else the messages themselves. */
  view: unknown[];
  /** How many leading messages the memory's output replaces (0 without one). */
  base: number;
  /** How many leading view elements are the memory's output (0 without one). */
  outputLen: number;
  /** True when there was a memory and the transcript no longer starts with its prefix (so it was dropped). */
  forgot: boolean;
}

/** Remembers which message objects last matched a prefix hash, to skip hashing an unchanged prefix again. */
export class PrefixMatcher {
  private verified: { hash: string; raws: unknown[] } | null = null;

  /**
   * Whether `messages` starts with the prefix `memory` describes.
   * @returns true when its first `prefixLen` messages hash to `prefixHash`.
   */
  matches(memory: FoldMemory, messages: readonly unknown[]): boolean {
    if (messages.length < memory.prefixLen) return false;
    const v = this.verified;
    if (v && v.hash === memory.prefixHash && v.raws.length === memory.prefixLen) {
      if (v.raws.every((raw, i) => raw === messages[i])) return true;
    }
    const raws = messages.slice(0, memory.prefixLen);
    if (prefixHash(raws) !== memory.prefixHash) return false;
    this.verified = { hash: memory.prefixHash, raws };
    return true;
  }

  /** Notes that `raws` hash to `hash` (they were just hashed to build a memory). */
  remember(hash: string, raws: unknown[]): void {
    this.verified = { hash, raws };
  }
}

/**
 * The view: the remembered fold's output followed by the rest of the transcript when the transcript still starts
 * with the folded prefix; otherwise the transcript as it is.
 * @returns the view; `forgot` tells the caller to drop the memory.
 */
export function viewOf(memory: FoldMemory | null, messages: readonly unknown[], matcher: PrefixMatcher): View {
  if (memory && matcher.matches(memory, messages)) {
    return {
      view: [...memory.output, ...messages.slice(memory.prefixLen)],
      base: memory.prefixLen,
      outputLen: memory.output.length,
      forgot: false,
    };
  }
  return { view: [...messages], base: 0, outputLen: 0, forgot: memory !== null };
}

/**
 * What to remember after folding a view into `folded`. The longest run of elements at the end of `folded` that are
 * the very objects at the end of the view's transcript part is the caller's own tail, `messages[prefixLen':]`;
 * everything before it (instructions, summary, pinned messages, anything hoisted) becomes the new output.
 * @param messages the caller's transcript the view was built from.
 * @param view the view that was folded, with its `outputLen`.
 * @param folded the folded context (`applyFold`'s result, whose kept elements are the view's objects).
 * @returns the new memory without its hash, and the prefix it covers (to hash).
 */
export function foldedMemory(
  messages: readonly unknown[],
  view: Pick<View, 'view' | 'outputLen'>,
  folded: readonly unknown[]
): { prefixLen: number; output: unknown[]; prefix: unknown[] } {
  const v = view.view;
  let kept = 0;
  while (
    kept < folded.length &&
    v.length - 1 - kept >= view.outputLen &&
    folded[folded.length - 1 - kept] === v[v.length - 1 - kept]
  ) {
    kept++;
  }
  const prefixLen = messages.length - kept;
  return { prefixLen, output: folded.slice(0, folded.length - kept), prefix: messages.slice(0, prefixLen) };
}

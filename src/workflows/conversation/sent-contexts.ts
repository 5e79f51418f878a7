/**
 * The contexts a caller may still report usage for. Every append (a `prepare`, a `record`) produces a new version
 * whose context is the previous one plus what was appended, so usage reported for an earlier version still anchors
 * the estimate: our count of that version is remembered, and the growth since is what we counted after it. Any
 * change that is not an append (a fold, a truncation, an eviction, a rewind, a clear, a new model) breaks the chain:
 * earlier versions are forgotten. Pure data, carried across continue-as-new.
 */

/** One produced context: its version and our (uncalibrated) count of it. */
export interface SentContext {
  version: number;
  counted: number;
}

/** Versions remembered: a report for a context more than this many appends old is ignored. */
export const SENT_CONTEXTS_KEPT = 64;

/**
 * Remembers a produced context. @returns the new chain (bounded to {@link SENT_CONTEXTS_KEPT}, oldest dropped).
 */
export function noteSent(chain: readonly SentContext[], sent: SentContext): SentContext[] {
  const out = chain.filter((c) => c.version !== sent.version);
  out.push(sent);
  return out.length > SENT_CONTEXTS_KEPT ? out.slice(out.length - SENT_CONTEXTS_KEPT) : out;
}

/** @returns our count of the context at `version`, or undefined when it is not part of the current append chain. */
export function countedAt(chain: readonly SentContext[], version: number): number | undefined {
  return chain.find((c) => c.version === version)?.counted;
}
